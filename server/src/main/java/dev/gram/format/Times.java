package dev.gram.format;

import dev.gram.base.DateSpan;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
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

  /**
   * {@code yyyy-MM-ddTHH:mm:ss.SSSZ}, milliseconds truncated. Written digit by digit for the years
   * 1–9999: every commit formats its time several times (its entry's text, its log record), and
   * the pattern formatter cost more than the rest of building the entry.
   */
  public static String format(Instant t) {
    LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0, ZoneOffset.UTC);
    int year = d.getYear();
    if (year < 1 || year > 9999) {
      return MILLIS.format(t);
    }
    byte[] b = new byte[24];
    digits(b, 0, year, 4);
    b[4] = '-';
    digits(b, 5, d.getMonthValue(), 2);
    b[7] = '-';
    digits(b, 8, d.getDayOfMonth(), 2);
    b[10] = 'T';
    digits(b, 11, d.getHour(), 2);
    b[13] = ':';
    digits(b, 14, d.getMinute(), 2);
    b[16] = ':';
    digits(b, 17, d.getSecond(), 2);
    b[19] = '.';
    digits(b, 20, t.getNano() / 1_000_000, 3);
    b[23] = 'Z';
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  private static void digits(byte[] b, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      b[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
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
