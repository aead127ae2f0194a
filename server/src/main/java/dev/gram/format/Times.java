package dev.gram.format;

import dev.gram.base.DateSpan;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The server's time format (ISO-8601 UTC with milliseconds) and lenient reading of ISO times. */
public final class Times {
  private Times() {}

  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  public static String format(Instant t) {
    return MILLIS.format(t);
  }

  public static Instant truncate(Instant t) {
    return t.truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * Reads an ISO-8601 instant or date-time with offset ({@code 2026-10-12T23:10:31.898Z}, {@code
   * 2026-10-12T23:10:31+02:00}), a date-time without offset (taken as UTC), or a date (its start,
   * UTC). Returns {@code null} for anything else.
   */
  public static Instant parseInstant(String s) {
    return DateSpan.parseInstant(s);
  }
}
