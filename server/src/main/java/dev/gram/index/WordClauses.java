package dev.gram.index;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

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
 *
 * <p>What is kept is bounded by its term states (one per term of a clause and segment of the
 * reader), not by its words: a word of a dozen terms on an index of twenty segments holds twenty
 * times what it holds on one. {@link #BUDGET} states are a few tens of megabytes at most; the words
 * asked longest ago go first.
 */
final class WordClauses {
  /**
   * One word's clauses.
   *
   * @param query the word's score: the best of its fields ({@link Queries#keyword})
   * @param lacksAsWritten for each phrase field, true when no unit has the word as written there
   *     (a phrase with that word cannot match in it)
   * @param owned the records owned by a person of that name, or null when nobody has it
   */
  record Clauses(Query query, boolean[] lacksAsWritten, Query owned) {}

  /** Term states kept at most (about 100 bytes each with their queries). */
  static final long BUDGET = 250_000;

  private record Kept(Clauses clauses, long states) {}

  private final long budget;
  private final Map<String, Kept> words = new LinkedHashMap<>(256, 0.75f, true);
  private long states;
  /** The reader the kept clauses were built with (its cache key: holding it does not hold the reader). */
  private Object reader;
  private int segments;

  WordClauses() {
    this(BUDGET);
  }

  /** @param budget term states kept at most */
  WordClauses(long budget) {
    this.budget = budget;
  }

  /** The clauses kept for {@code word} from {@code reader}, or null. */
  synchronized Clauses get(Object reader, Queries.Word word) {
    if (reader == null || reader != this.reader) {
      return null;
    }
    Kept k = words.get(key(word));
    return k == null ? null : k.clauses();
  }

  /**
   * Keeps {@code clauses}, built with {@code reader} of {@code segments} segments; a new reader
   * drops what an older one built, and the words asked longest ago go while over the budget.
   */
  synchronized void put(Object reader, int segments, Queries.Word word, Clauses clauses) {
    if (reader == null) {
      return;
    }
    if (reader != this.reader) {
      words.clear();
      states = 0;
      this.reader = reader;
      this.segments = Math.max(1, segments);
    }
    long cost = (long) (Math.max(1, terms(clauses.query())) + (clauses.owned() == null ? 0 : 1)) * this.segments;
    Kept old = words.put(key(word), new Kept(clauses, cost));
    states += cost - (old == null ? 0 : old.states());
    for (Iterator<Kept> eldest = words.values().iterator(); states > budget && eldest.hasNext(); ) {
      states -= eldest.next().states();
      eldest.remove();
    }
  }

  /** Words kept now (for tests). */
  synchronized int size() {
    return words.size();
  }

  /** A word's clauses depend on its term and stem, not on where it stands in the query. */
  private static String key(Queries.Word w) {
    return w.stem() == null ? w.term() : w.term() + '\u0000' + w.stem();
  }

  /** The terms a query's leaves search for. */
  static int terms(Query q) {
    int[] n = {0};
    q.visit(
        new QueryVisitor() {
          @Override
          public void consumeTerms(Query query, Term... terms) {
            n[0] += terms.length;
          }

          @Override
          public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
            return this;
          }
        });
    return n[0];
  }
}
