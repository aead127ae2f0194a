package dev.gram.index;

import dev.gram.base.DateSpan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dates written in a query, and the query without them: {@code 2026-10-12}, {@code 2026-10},
 * {@code 2026}, and dates in words ({@code 8 May 2023}, {@code May 8, 2023}, {@code May 2023}).
 * Keyword search narrows or boosts by them ({@link Queries}); the words left are searched as words.
 *
 * @param spans the dates, in the order they were read (dates in words first)
 * @param rest the query with each date replaced by a space
 */
record QueryDates(List<DateSpan> spans, String rest) {
  /**
   * A date, month or year written in a query (years 1900–2199, so that ordinary numbers are not
   * read as years), standing alone as a word.
   */
  private static final Pattern DATE =
      Pattern.compile("(?<![\\w.:/-])((?:19|20|21)\\d{2}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01]))?)?)(?![\\w:/-])");

  /** A date written in words: the month's full name or its first three letters, any case. */
  private static final Pattern WORD_DATE = Pattern.compile(
      "(?i)(?<![\\w])(?:(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?"
          + "(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?)?,?\\s+((?:19|20|21)\\d{2})(?![\\w-])");

  private static final List<String> MONTHS =
      List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

  /** True when the query is dates and nothing else. */
  boolean only() {
    return !spans.isEmpty() && rest.isBlank();
  }

  /** The dates of {@code query}. */
  static QueryDates of(String query) {
    if (!hasYearDigits(query)) {
      // Both patterns need a year: most queries have none, and a long one would be scanned by
      // each pattern at every character.
      return new QueryDates(List.of(), query);
    }
    return scan(query);
  }

  /** {@link #of} without its shortcut: both patterns run over the whole query. */
  static QueryDates scan(String query) {
    List<DateSpan> spans = new ArrayList<>();
    // Dates in words first: their year alone would otherwise be read as a year.
    String rest = cut(query, WORD_DATE, spans, m -> {
      String month = m.group(2).toLowerCase(Locale.ROOT).substring(0, 3);
      int mm = MONTHS.indexOf(month) + 1;
      String day = m.group(1) != null ? m.group(1) : m.group(3);
      String ym = m.group(4) + "-" + (mm < 10 ? "0" : "") + mm;
      return day == null ? ym : ym + "-" + (day.length() == 1 ? "0" : "") + day;
    });
    rest = cut(rest, DATE, spans, m -> m.group(1));
    return new QueryDates(spans, rest);
  }

  /** True when {@code text} has four ASCII digits in a row, as every date {@link #of} reads does. */
  static boolean hasYearDigits(String text) {
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      run = c >= '0' && c <= '9' ? run + 1 : 0;
      if (run == 4) {
        return true;
      }
    }
    return false;
  }

  /** Removes the dates {@code p} finds from {@code text}, adding their spans; the text left. */
  private static String cut(String text, Pattern p, List<DateSpan> spans, Function<Matcher, String> iso) {
    StringBuilder rest = new StringBuilder();
    Matcher m = p.matcher(text);
    int last = 0;
    while (m.find()) {
      DateSpan s = DateSpan.parse(iso.apply(m));
      if (s != null) {
        spans.add(s);
        rest.append(text, last, m.start()).append(' ');
        last = m.end();
      }
    }
    rest.append(text.substring(last));
    return rest.toString();
  }
}
