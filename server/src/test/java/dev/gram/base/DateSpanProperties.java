package dev.gram.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A month or a day in a query is the span {@code java.time}'s ISO parsers give it, and a month
 * 13 or a February 30th is no date at all, whether the year is a leap year or not.
 */
class DateSpanProperties {

  @Property(tries = 2000)
  void aMonthIsTheSpanIsoGivesIt(@ForAll @IntRange(min = 1000, max = 9999) int year, @ForAll @IntRange(min = 0, max = 19) int month) {
    String text = String.format("%04d-%02d", year, month);
    DateSpan span = DateSpan.parse(text);
    YearMonth m;
    try {
      m = YearMonth.parse(text);
    } catch (DateTimeParseException e) {
      assertThat(span).isNull();
      return;
    }
    assertThat(span).isNotNull();
    assertThat(span.start()).isEqualTo(m.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    assertThat(span.end()).isEqualTo(m.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  @Property(tries = 4000)
  void aDayIsTheSpanIsoGivesIt(
      @ForAll @IntRange(min = 1896, max = 2104) int year,
      @ForAll @IntRange(min = 0, max = 13) int month,
      @ForAll @IntRange(min = 0, max = 32) int day) {
    String text = String.format("%04d-%02d-%02d", year, month, day);
    DateSpan span = DateSpan.parse(text);
    LocalDate d;
    try {
      d = LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      assertThat(span).isNull();
      return;
    }
    assertThat(span).isNotNull();
    assertThat(span.start()).isEqualTo(d.atStartOfDay(ZoneOffset.UTC).toInstant());
    assertThat(span.end()).isEqualTo(d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
  }
}
