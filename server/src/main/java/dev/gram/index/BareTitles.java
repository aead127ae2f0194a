package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;

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
    return UnitMatches.of(s, new FieldExistsQuery(Schema.BARE_TITLE), ranked.stream().mapToInt(Candidate::doc).toArray());
  }
}
