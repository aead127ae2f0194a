package dev.gram.index;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * A constant-score filter that many recalls share, its documents found once per segment and kept
 * while the segment lives: the units whose words say when, the units with a date (both boosts of
 * a "when …" question).
 *
 * <p>Why: the filter itself is a set of 37 words, or every value of a point field, and Lucene finds
 * its documents anew for each search (it enumerates the terms, or walks the points, and fills a
 * set of every matching unit of the segment, not only those the search visits). Lucene's own query
 * cache would keep them, but by default only for segments of 10,000 documents or more, after a
 * query has been seen several times, and it cannot tell this filter from one a recall will never
 * ask again.
 *
 * <p>The documents of a segment are kept under its core's key, which its reopened readers share:
 * what a later write deleted is left out by the search's live documents, as for any query. A
 * segment's set goes when the segment closes. Equality is identity: one instance per filter.
 */
final class StandingFilter extends Query {
  private final String name;
  private final Query query;
  /** A segment's documents and how many they are. */
  private record Found(FixedBitSet docs, int count) {}

  private static final Found NONE = new Found(null, 0);

  private final Map<IndexReader.CacheKey, Found> segments = new ConcurrentHashMap<>();

  /** @param query what matches; its score is ignored */
  StandingFilter(String name, Query query) {
    this.name = name;
    this.query = query;
  }

  /** Segments whose documents are kept now (for a test). */
  int segmentsKept() {
    return segments.size();
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new ConstantScoreWeight(this, boost) {
      @Override
      public Scorer scorer(LeafReaderContext leaf) throws IOException {
        Found found = documents(searcher, leaf);
        if (found == NONE) {
          return null;
        }
        return new ConstantScoreScorer(this, score(), scoreMode, new BitSetIterator(found.docs(), found.count()));
      }

      @Override
      public boolean isCacheable(LeafReaderContext leaf) {
        return false; // kept here already
      }
    };
  }

  /** The segment's matching documents, deleted ones included; {@link #NONE} when none. */
  private Found documents(IndexSearcher searcher, LeafReaderContext leaf) throws IOException {
    IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
    if (core == null) {
      return find(searcher, leaf);
    }
    Found kept = segments.get(core.getKey());
    if (kept == null) {
      kept = find(searcher, leaf);
      if (segments.putIfAbsent(core.getKey(), kept) == null) {
        core.addClosedListener(segments::remove);
      }
    }
    return kept;
  }

  private Found find(IndexSearcher searcher, LeafReaderContext leaf) throws IOException {
    Weight w = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
    Scorer s = w.scorer(leaf);
    if (s == null) {
      return NONE;
    }
    FixedBitSet docs = new FixedBitSet(leaf.reader().maxDoc());
    int count = 0;
    DocIdSetIterator it = s.iterator();
    for (int d = it.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
      docs.set(d);
      count++;
    }
    return count == 0 ? NONE : new Found(docs, count);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return name;
  }

  @Override
  public boolean equals(Object other) {
    return other == this;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
