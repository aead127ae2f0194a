package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Documents found by their title alone go after every other hit of a ranking by meaning. A
 * document whose body only places records (a session of a conversation: "Ana and Ben, session 3")
 * has one unit, its title, and that title's vector is near any question naming the same people, so
 * it took places from the records inside it: 1.2 of semantic's first ten per question on the public
 * LoCoMo conversations. Keyword search weighs such a title lower instead ({@link Schema#BARE_TITLE}).
 */
final class BareTitles {
  private BareTitles() {}

  /** {@code ranked} with its bare-title documents moved after the rest, each part in its order. */
  static List<Candidate> last(IndexSearcher s, List<Candidate> ranked) throws IOException {
    boolean[] bare = bare(s, ranked);
    List<Candidate> first = new ArrayList<>(ranked.size());
    List<Candidate> after = new ArrayList<>();
    for (int i = 0; i < bare.length; i++) {
      (bare[i] ? after : first).add(ranked.get(i));
    }
    if (after.isEmpty()) {
      return ranked;
    }
    first.addAll(after);
    return first;
  }

  /** Which of {@code ranked} is a unit with a {@link Schema#BARE_TITLE}. */
  private static boolean[] bare(IndexSearcher s, List<Candidate> ranked) throws IOException {
    boolean[] out = new boolean[ranked.size()];
    if (ranked.isEmpty()) {
      return out;
    }
    Integer[] order = new Integer[ranked.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(ranked.get(a).doc(), ranked.get(b).doc()));
    Weight w = s.createWeight(new FieldExistsQuery(Schema.BARE_TITLE), ScoreMode.COMPLETE_NO_SCORES, 1f);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int leaf = -1;
    DocIdSetIterator it = null;
    for (int i : order) {
      int doc = ranked.get(i).doc();
      int l = ReaderUtil.subIndex(doc, leaves);
      if (l != leaf) {
        leaf = l;
        Scorer sc = w.scorer(leaves.get(l));
        it = sc == null ? null : sc.iterator();
      }
      int target = doc - leaves.get(l).docBase;
      if (it != null) {
        // Ascending targets: the iterator only moves forward.
        out[i] = (it.docID() < target ? it.advance(target) : it.docID()) == target;
      }
    }
    return out;
  }
}
