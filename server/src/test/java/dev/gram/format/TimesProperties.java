package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * The server's time text is written digit by digit; it must be exactly what the pattern {@code
 * yyyy-MM-dd'T'HH:mm:ss.SSS'Z'} gives, since it goes into every history entry, whose chain hash
 * covers it.
 */
class TimesProperties {
  private static final DateTimeFormatter PATTERN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  @Property(tries = 5_000)
  void formatIsThePatternsText(
      // From year -2000 to year 12000: past both ends of the digit-by-digit years.
      @ForAll @LongRange(min = -125_000_000_000L, max = 316_000_000_000L) long epochSecond,
      @ForAll @LongRange(min = 0, max = 999_999_999) long nanos) {
    Instant t = Instant.ofEpochSecond(epochSecond, nanos);
    assertThat(Times.format(t)).isEqualTo(PATTERN.format(t));
  }

  @Example
  void edges() {
    for (String s : new String[] {"1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
        "2024-02-29T12:34:56.789Z", "2026-12-06T05:21:00.000999Z", "1969-12-31T23:59:59.999Z"}) {
      Instant t = Instant.parse(s);
      assertThat(Times.format(t)).as(s).isEqualTo(PATTERN.format(t));
    }
  }
}
