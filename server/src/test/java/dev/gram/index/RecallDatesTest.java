package dev.gram.index;

import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dates: written in the query (day, month, year) and as from/to/date filters, with the rules of
 * gram_list (inclusive ends, a date-only to includes its day, month and year spans, the default
 * date field by record type).
 */
class RecallDatesTest {
  @TempDir static Path dir;
  static GramTestServer server;
  static final String P = "cal/dates.gram#";

  @BeforeAll
  static void start() {
    server = GramTestServer.start(dir.resolve("vault"), "--no-semantic");
    Fixtures.create(server, "cal/dates.gram", "Release calendar",
        new JsonObject()
            .put("text", "# Calendar\n\nThe release window opens 2026-10-12 for every rocket team.")
            .put("records", new JsonArray()
                .add(record("event", "launch", "Rocket launch", "at", "2026-10-12T18:30:00Z"))
                .add(record("task", "paint", "Paint the rocket", "due", "2026-10-12", "at", "2026-01-05"))
                .add(record("metric", "thrust", "Rocket thrust", "value", "9", "unit", "MN", "observed", "2026-10-31"))
                .add(record("decision", "fuel", "Rocket fuel choice", "at", "2026-09-30", "review", "2026-11-02"))
                .add(record("event", "old", "Rocket prototype test", "at", "2025-12-31"))
                .add(record("task", "undated", "Rocket checklist"))));
    Fixtures.awaitIndexed(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static List<String> ids(JsonObject args) {
    JsonObject a = server.call("gram_recall", args).ok();
    List<String> out = new ArrayList<>();
    for (Object o : a.getJsonArray("hits")) {
      out.add(((JsonArray) o).getString(0).replace(P, ""));
    }
    return out;
  }

  static JsonObject q(String query, String mode) {
    return new JsonObject().put("query", query).put("mode", mode).put("top_k", 20);
  }

  @Test
  void aDayInTheQueryMatchesRecordDatesInKeywordExactAndAuto() {
    for (String mode : List.of("keyword", "exact", "auto")) {
      List<String> ids = ids(q("2026-10-12", mode));
      // The event at that day (a time inside it), the task due that day: records first.
      assertThat(ids.subList(0, 2)).as(mode).containsExactlyInAnyOrder("launch", "paint");
      assertThat(ids).as(mode).doesNotContain("thrust", "fuel", "old", "undated");
    }
  }

  @Test
  void aMonthOrAYearInTheQueryIsASpan() {
    assertThat(ids(q("2026-10", "keyword")).subList(0, 3)).containsExactlyInAnyOrder("launch", "paint", "thrust");
    assertThat(ids(q("2025", "keyword"))).first().isEqualTo("old");
    List<String> year = ids(q("2026", "auto"));
    assertThat(year.subList(0, 4)).containsExactlyInAnyOrder("launch", "paint", "thrust", "fuel");
    assertThat(year).doesNotContain("old");
    // A date beside words ranks the dated record first among those the words find.
    assertThat(ids(q("rocket 2025-12", "keyword"))).first().isEqualTo("old");
  }

  @Test
  void fromAndToAreInclusiveAndADateOnlyToIncludesItsDay() {
    // Default fields: event at, task due, metric observed, otherwise at.
    assertThat(ids(q("rocket", "keyword").put("from", "2026-10-12").put("to", "2026-10-12")))
        .containsExactlyInAnyOrder("launch", "paint");
    assertThat(ids(q("rocket", "keyword").put("to", "2026-10-12T18:30:00Z")))
        .containsExactlyInAnyOrder("launch", "paint", "fuel", "old");
    // A record's date is a span too: a due day meets a window starting later that day.
    assertThat(ids(q("rocket", "keyword").put("from", "2026-10-12T18:30:00.001Z")))
        .containsExactlyInAnyOrder("paint", "thrust");
    assertThat(ids(q("rocket", "keyword").put("from", "2026-10").put("to", "2026-10")))
        .containsExactlyInAnyOrder("launch", "paint", "thrust");
    assertThat(ids(q("rocket", "keyword").put("from", "2026"))).containsExactlyInAnyOrder("launch", "paint", "thrust", "fuel");
    assertThat(ids(q("rocket", "keyword").put("to", "2025"))).containsExactly("old");
  }

  @Test
  void dateNamesAnotherField() {
    // The task's own at, not its due date.
    assertThat(ids(q("rocket", "keyword").put("from", "2026-01").put("to", "2026-01").put("date", "at")))
        .containsExactly("paint");
    assertThat(ids(q("rocket", "keyword").put("from", "2026-11-01").put("date", "review"))).containsExactly("fuel");
    assertThat(ids(q("rocket", "keyword").put("from", "2026-11-01").put("date", "nothing"))).isEmpty();
  }

  @Test
  void aDateFilterHoldsInEveryModeAndKeepsOutUndatedHits() {
    for (String mode : List.of("keyword", "exact", "semantic", "hybrid", "auto")) {
      List<String> ids = ids(q("rocket", mode).put("from", "2026-10-01").put("to", "2026-10-31"));
      assertThat(ids).as(mode).containsExactlyInAnyOrder("launch", "paint", "thrust");
    }
  }

  @Test
  void aBadDateIsRefused() {
    var r = server.call("gram_recall", q("rocket", "keyword").put("from", "next week"));
    assertThat(r.code()).isEqualTo("E_ARGUMENT");
    var r2 = server.call("gram_recall", q("rocket", "keyword").put("from", "2026-11").put("to", "2026-10"));
    assertThat(r2.code()).isEqualTo("E_ARGUMENT");
  }
}
