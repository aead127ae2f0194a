package dev.gram.index;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Units whose own words say when something happened: "yesterday", "last weekend", "two years
 * ago", "in June", "since the spring". A "when …" question is answered by such a record: its
 * {@code at} is only when it was written, its words place the event. In the public LoCoMo
 * conversations, 281 of the 374 evidence turns of "when" questions hold such a word, against 815
 * of all 5,882 turns.
 * Read by {@link Queries#keyword} and by the semantic ranking of {@code RecallSearcher}.
 */
final class TimeWords {
  private TimeWords() {}

  /** What keyword adds to such a unit's score for a "when" question: as much as a named owner. */
  static final float KEYWORD = 1f;

  /**
   * What semantic adds to such a unit's cosine for a "when" question, in semantic mode and in
   * hybrid's semantic ranking (a minority of units, unlike a named owner's records, so it does not
   * split that ranking in two; docs/recall.md).
   */
  static final float COSINE = 0.05f;

  /**
   * The words, as the exact analysis indexes them (lowercase, whole words). "may" and "march"
   * are left out: far more often a verb than a month.
   */
  private static final String[] WORDS = {
    "yesterday", "today", "tonight", "tomorrow", "ago", "recently", "lately", "soon", "since", "weekend",
    "week", "weeks", "month", "months", "year", "years", "summer", "winter", "spring", "autumn",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "april", "june", "july", "august", "september", "october", "november", "december"
  };

  /**
   * Units holding a time word in their text. Not years: a record's own dates are in its text
   * too, so a year would match every dated record.
   */
  static final Query QUERY = build();

  private static Query build() {
    List<BytesRef> terms = new ArrayList<>();
    for (String w : WORDS) {
      terms.add(new BytesRef(w));
    }
    return new StandingFilter("units that say when", new TermInSetQuery(Schema.TEXT_X, terms));
  }
}
