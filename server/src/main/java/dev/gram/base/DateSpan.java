package dev.gram.base;

import dev.gram.format.RecordDates;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * A span of time written as a year ({@code 2026}), a month ({@code 2026-10}), a day ({@code
 * 2026-10-12}) or an instant ({@code 2026-10-12T23:10:31Z}): {@code [start, end)}, where an
 * instant is the span of its own millisecond. All in UTC.
 *
 * <p>The date rules of lists and recall: {@code from} and {@code to} are inclusive; a {@code to}
 * without a time includes its whole day (month, year); a record matches when its date's span
 * meets the filter's span. Which field holds a record's date is the format's rule ({@code
 * dev.gram.format.RecordDates}).
 */
public record DateSpan(Instant start, Instant end) {
  private static final Pattern YEAR = Pattern.compile("\\d{4}");
  private static final Pattern MONTH = Pattern.compile("\\d{4}-\\d{2}");
  private static final Pattern DAY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  /** The span a date string covers, or {@code null} when it is not a date. */
  public static DateSpan parse(String s) {
    if (s == null) {
      return null;
    }
    String v = s.strip();
    try {
      if (YEAR.matcher(v).matches()) {
        int y = Integer.parseInt(v);
        return new DateSpan(LocalDate.of(y, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant(),
            LocalDate.of(y + 1, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant());
      }
      // YearMonth.of and LocalDate.of refuse a month 13 or a February 30th as parse does, without
      // a formatter's work on every recall that names a date.
      if (MONTH.matcher(v).matches()) {
        YearMonth m = YearMonth.of(Integer.parseInt(v, 0, 4, 10), Integer.parseInt(v, 5, 7, 10));
        return new DateSpan(m.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
            m.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant());
      }
      if (DAY.matcher(v).matches()) {
        LocalDate d = LocalDate.of(
            Integer.parseInt(v, 0, 4, 10), Integer.parseInt(v, 5, 7, 10), Integer.parseInt(v, 8, 10, 10));
        return new DateSpan(d.atStartOfDay(ZoneOffset.UTC).toInstant(),
            d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
      }
    } catch (RuntimeException e) {
      return null;
    }
    Instant t = parseInstant(v);
    if (t == null) {
      return null;
    }
    return new DateSpan(t, t.plusMillis(1));
  }

  public boolean meets(DateSpan other) {
    return start.isBefore(other.end) && other.start.isBefore(end);
  }

  /**
   * An instant in one of the forms people and agents write: ISO-8601 with {@code Z} or an offset,
   * a local date-time (read as UTC), or a date (its start, UTC). {@code null} when it is none.
   */
  public static Instant parseInstant(String s) {
    if (s == null || s.isBlank()) {
      return null;
    }
    String v = s.trim();
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException ignored) {
      // try the other forms
    }
    try {
      return OffsetDateTime.parse(v).toInstant();
    } catch (DateTimeParseException ignored) {
      // try the other forms
    }
    try {
      return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException ignored) {
      // try the other forms
    }
    try {
      return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException ignored) {
      return null;
    }
  }

  /** A from/to/date filter; both ends optional. */
  public record Filter(DateSpan from, DateSpan to, String field) {

    /** Reads a filter; E_ARGUMENT names an end that is not a date. */
    public static Filter of(String from, String to, String field) {
      DateSpan f = from == null ? null : parse(from);
      DateSpan t = to == null ? null : parse(to);
      if (from != null && f == null) {
        throw new GramException(ErrorCode.E_ARGUMENT, "from is not a date: " + from + " (use YYYY, YYYY-MM, YYYY-MM-DD or an ISO time)");
      }
      if (to != null && t == null) {
        throw new GramException(ErrorCode.E_ARGUMENT, "to is not a date: " + to + " (use YYYY, YYYY-MM, YYYY-MM-DD or an ISO time)");
      }
      if (f != null && t != null && !f.start().isBefore(t.end())) {
        throw new GramException(ErrorCode.E_ARGUMENT, "from " + from + " is after to " + to);
      }
      return new Filter(f, t, field == null || field.isBlank() ? null : field);
    }

    public boolean active() {
      return from != null || to != null;
    }

    /** The span from the start of {@code from} to the end of {@code to}. */
    public DateSpan window() {
      return new DateSpan(from == null ? Instant.MIN : from.start(), to == null ? Instant.MAX : to.end());
    }

  }
}
