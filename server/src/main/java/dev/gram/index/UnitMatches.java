package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Which of a few units match a query, without searching the whole index for it: the units are
 * visited in order, one iterator per segment, each advanced to the next unit asked about. For the
 * hundred candidates of a ranking this costs a hundred skips, where a filtered search would score
 * every unit the query matches. {@link #raise} uses it to add a bonus to the candidates of a
 * ranking that a query matches (a date the query names, an owner it names, a word saying when);
 * {@link BareTitles} uses it to find the documents it moves last.
 */
final class UnitMatches {
  private UnitMatches() {}

  /** For each of {@code docs} (top-level doc ids, any order), whether it matches {@code q}. */
  static boolean[] of(IndexSearcher s, Query q, int[] docs) throws IOException {
    boolean[] out = new boolean[docs.length];
    if (docs.length == 0) {
      return out;
    }
    Weight w = s.createWeight(s.rewrite(q), ScoreMode.COMPLETE_NO_SCORES, 1f);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = null;
    DocIdSetIterator it = null;
    for (int i : BinaryValues.inDocOrder(docs)) {
      int doc = docs[i];
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        Scorer scorer = w.scorer(leaf);
        it = scorer == null ? null : scorer.iterator();
      }
      if (it == null) {
        continue;
      }
      int local = doc - leaf.docBase;
      int at = it.docID() >= local ? it.docID() : it.advance(local);
      out[i] = at == local;
    }
    return out;
  }

  /** {@code ranked} with {@code bonus} added to each candidate {@code q} matches, best first. */
  static List<Candidate> raise(IndexSearcher s, Query q, List<Candidate> ranked, float bonus) throws IOException {
    if (q == null || ranked.isEmpty()) {
      return ranked;
    }
    boolean[] in = of(s, q, ranked.stream().mapToInt(Candidate::doc).toArray());
    List<Candidate> out = new ArrayList<>(ranked.size());
    for (int i = 0; i < in.length; i++) {
      Candidate c = ranked.get(i);
      out.add(in[i] ? new Candidate(c.doc(), c.score() + bonus, c.key(), c.cosine()) : c);
    }
    // Stable: candidates of equal score keep the order (and its ties by key) they came in.
    out.sort((a, b) -> Float.compare(b.score(), a.score()));
    return out;
  }
}
