package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Records owned by a person a query names rank higher by meaning, as they do by keyword ({@link
 * Queries#OWNER_BOOST}). An agent asks about someone ("What is Melanie's reason for getting into
 * running?"), and the answer is usually that person's own record: in the public LoCoMo
 * conversations, 1,368 of 1,535 questions name one of the two speakers, and in 1,294 of them every
 * evidence turn is that speaker's. A model's vector barely tells who said a sentence, so the
 * meaning of the question alone finds the other speaker's turns about the same topic as readily.
 *
 * <p>Semantic mode adds {@link #COSINE} to the cosine of an owned record; hybrid adds {@link
 * #FUSED} to the fused score after fusion, not to its semantic ranking: a bonus inside that
 * ranking splits it into two groups and flattens the first hit's z-score, which is the ranking's
 * confidence ({@link HybridFusion}), so the fusion then listened to the keyword ranking more (the
 * project's conversation corpus, hybrid recall@5 0.670 → 0.533 with 0.2 inside it). Figures in
 * {@code docs/recall.md}.
 */
final class NamedOwners {
  private NamedOwners() {}

  /** What semantic mode adds to the cosine of a record owned by a person the query names. */
  static final float COSINE = 0.05f;

  /** What hybrid adds to the fused score (a weighted sum of z-scores) of such a record. */
  static final float FUSED = 0.5f;

  /** Records owned by a person the query names, or null when no owner in the index is named. */
  static Query of(IndexSearcher s, Queries.Parsed parsed) throws IOException {
    List<BytesRef> names = new ArrayList<>();
    for (Queries.Word w : parsed.words()) {
      Term t = new Term(Schema.WHO, w.term());
      if (s.getIndexReader().docFreq(t) > 0) {
        names.add(t.bytes());
      }
    }
    return names.isEmpty() ? null : new TermInSetQuery(Schema.WHO, names);
  }
}
