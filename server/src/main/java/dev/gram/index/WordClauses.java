package dev.gram.index;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.search.Query;

/**
 * The keyword clauses of the words recalls asked about, kept for the index as one reader sees it.
 *
 * <p>Why: a word's clauses (the best of six fields, each the word as written and its stem, a typo's
 * expansion when no unit has it, a name's lesser weight) cost about a dozen term lookups in every
 * segment to build, and agents' questions share their words: names, the verbs of "when did …",
 * the topic of a conversation. Building them was a sixth of a warm keyword recall's CPU over stdio
 * (JFR, 462 questions of a generated conversation corpus, 2,960 units).
 *
 * <p>A word's clauses hold the term statistics of one reader, so they are only good for it: the
 * first recall that sees a new reader drops every kept word, as {@link RecentRankings} drops its
 * rankings. The clauses are immutable Lucene queries, shared by every recall of that reader.
 */
final class WordClauses {
  /**
   * One word's clauses.
   *
   * @param query the word's score: the best of its fields ({@link Queries#keyword})
   * @param lacksAsWritten for each phrase field, true when no unit has the word as written there
   *     (a phrase with that word cannot match in it)
   */
  record Clauses(Query query, boolean[] lacksAsWritten) {}

  static final int KEPT = 8_192;

  private final Map<String, Clauses> words =
      new LinkedHashMap<>(KEPT * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Clauses> eldest) {
          return size() > KEPT;
        }
      };
  /** The reader the kept clauses were built with (its cache key: holding it does not hold the reader). */
  private Object reader;

  /** The clauses kept for {@code word} from {@code reader}, or null. */
  synchronized Clauses get(Object reader, Queries.Word word) {
    return reader != null && reader == this.reader ? words.get(key(word)) : null;
  }

  /** Keeps {@code clauses}, built with {@code reader}; a new reader drops what an older one built. */
  synchronized void put(Object reader, Queries.Word word, Clauses clauses) {
    if (reader == null) {
      return;
    }
    if (reader != this.reader) {
      words.clear();
      this.reader = reader;
    }
    words.put(key(word), clauses);
  }

  /** A word's clauses depend on its term and stem, not on where it stands in the query. */
  private static String key(Queries.Word w) {
    return w.stem() == null ? w.term() : w.term() + '\u0000' + w.stem();
  }
}
