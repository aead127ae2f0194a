package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class QueriesTest {
  static int dates(String q) {
    return QueryDates.of(q).spans().size();
  }

  @Test
  void datesInAQueryAreDaysMonthsAndYearsStandingAlone() {
    assertThat(dates("2026-10-12")).isEqualTo(1);
    assertThat(dates("launch 2026-10")).isEqualTo(1);
    assertThat(dates("2026")).isEqualTo(1);
    assertThat(dates("from 2025-12 to 2026-01-31.")).isEqualTo(2);
    assertThat(QueryDates.of("outage 2026-03 recap").rest().strip()).isEqualTo("outage   recap".strip());
    // Not dates: other numbers, impossible months, parts of ids and versions, times.
    assertThat(dates("4096 tokens")).isZero();
    assertThat(dates("2026-13")).isZero();
    assertThat(dates("release-2026")).isZero();
    assertThat(dates("v2026.1")).isZero();
    assertThat(dates("2026-10-12T10:00")).isZero();
  }

  /**
   * A query without four digits in a row skips both date patterns: the same dates and the same
   * rest as when they run over it (fails if the shortcut skips a query that holds a date).
   */
  @Property(tries = 2_000)
  void theShortcutFindsWhatThePatternsFind(@ForAll("queries") String q) {
    assertThat(QueryDates.of(q)).isEqualTo(QueryDates.scan(q));
  }

  @Provide
  Arbitrary<String> queries() {
    Arbitrary<String> piece = Arbitraries.oneOf(
        Arbitraries.of("May", "sept", "8th", "of", "2023", "2026-10", "2026-10-12", "1999", "212", "20", "26",
            "-", ",", ".", "/", ":", "launch", "when", "v2026.1", "4096"),
        Arbitraries.strings().withChars("0123456789-:./, aMy").ofMaxLength(6),
        Arbitraries.integers().between(0, 2199).map(String::valueOf));
    return piece.list().ofMaxSize(8).flatMap(parts -> Arbitraries.of("", " ", "").map(sep -> {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < parts.size(); i++) {
        b.append(parts.get(i)).append(i % 3 == 2 ? sep : " ");
      }
      return b.toString();
    }));
  }

  @Test
  void datesWrittenInWordsAreDaysAndMonths() {
    assertThat(QueryDates.of("what happened on 8 May 2023?").spans()).extracting(Object::toString)
        .containsExactly(dev.gram.base.DateSpan.parse("2023-05-08").toString());
    assertThat(QueryDates.of("May 8th, 2023").spans()).extracting(Object::toString)
        .containsExactly(dev.gram.base.DateSpan.parse("2023-05-08").toString());
    assertThat(QueryDates.of("trips in sept 2024").spans()).extracting(Object::toString)
        .containsExactly(dev.gram.base.DateSpan.parse("2024-09").toString());
    assertThat(QueryDates.of("trips in sept 2024").rest().strip()).isEqualTo("trips in");
    // Not dates: a month name without a year, "may" as a verb.
    assertThat(dates("we may 2 go")).isZero();
    assertThat(dates("in May")).isZero();
  }

  @Test
  void keywordWordsKeepTheWordAndItsStemAndDropQuestionWords() {
    List<Queries.Word> w = Queries.words("Who migrated the databases?");
    assertThat(w).extracting(Queries.Word::term).containsExactly("migrated", "databases");
    assertThat(w).extracting(Queries.Word::stem).containsExactly("migrat", "databas");
    // A query of stop words alone is still searched.
    assertThat(Queries.words("the who")).extracting(Queries.Word::term).containsExactly("the", "who");
  }

  @Test
  void exactTermsAreLowercaseWordsWithPunctuationAsSeparators() {
    assertThat(Queries.exactTerms("Lunar-Migration, d_4f2 v1.2 Café")).containsExactly("lunar", "migration", "d_4f2", "v1.2", "café");
  }

  /** A question: ends with a question mark, or starts with a question word and has three words. */
  @Test
  void aQuestionEndsWithAMarkOrStartsWithAQuestionWordAndHasThreeWords() {
    assertThat(AutoMode.isQuestion("release checklist?")).isTrue();
    assertThat(AutoMode.isQuestion("Why did Ana\tdecide")).isTrue();
    assertThat(AutoMode.isQuestion("how   is  it going")).isTrue();
    assertThat(AutoMode.isQuestion("why decide")).isFalse();
    assertThat(AutoMode.isQuestion("why decide ")).isFalse();
    assertThat(AutoMode.isQuestion(" why did Ana decide")).isFalse();
    assertThat(AutoMode.isQuestion("migration decision last week")).isFalse();
    assertThat(AutoMode.isQuestion("whyever did it fail")).isFalse();
  }
}
