package dev.gram.index;

import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A document whose body only places records (a conversation's session, say) is found by its
 * title, but below the records it holds that match as well: its title names the same people as
 * every record inside, and must not crowd them out of the first hits.
 */
class DocumentHitsTest {
  @TempDir Path dir;

  @Test
  void aDocumentFoundByItsTitleAloneRanksBelowItsMatchingRecords() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"))) {
      Fixtures.create(s, "talks/session-01.gram", "Ana and Ben, session 1 (8 May 2023)",
          new JsonObject().put("records", session()));
      Fixtures.awaitIndexed(s);
      List<String> hits = ids(s.call("gram_recall", new JsonObject().put("query", "What is the name of Ben's puppy?")
          .put("mode", "keyword")).ok());
      assertThat(hits.get(0)).isEqualTo("talks/session-01.gram#D1:2");
      int doc = hits.indexOf(hits.stream().filter(h -> !h.contains("#D1:")).findFirst().orElse("none"));
      if (doc >= 0) {
        assertThat(doc).as("the session document after its matching turns: " + hits).isGreaterThan(hits.indexOf("talks/session-01.gram#D1:3"));
      }
      // Asked by its title, the document is still found.
      assertThat(ids(s.call("gram_recall", new JsonObject().put("query", "Ana and Ben session 1").put("mode", "keyword")).ok()))
          .anyMatch(h -> !h.contains("#D1:"));
    }
  }

  @Test
  void byMeaningADocumentFoundByItsTitleAloneComesAfterEveryRecord() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--semantic")) {
      Fixtures.create(s, "talks/session-01.gram", "Ana and Ben, session 1 (8 May 2023)",
          new JsonObject().put("records", session()));
      Fixtures.create(s, "talks/notes.gram", "Notes on Ana and Ben",
          new JsonObject().put("text", "# Notes on Ana and Ben\n\nAna and Ben talk every week about their pets."));
      Fixtures.awaitEmbedded(s);
      for (String mode : List.of("semantic", "hybrid")) {
        // The question is the session's own title: its vector is nearest of all.
        List<String> hits = ids(s.call("gram_recall",
            new JsonObject().put("query", "Ana and Ben, session 1 (8 May 2023)").put("mode", mode)).ok());
        String session = hits.stream().filter(h -> h.startsWith("talks/session-01.gram#") && !h.contains("#D1:"))
            .findFirst().orElseThrow(() -> new AssertionError(mode + ": the session document is still found: " + hits));
        assertThat(hits.indexOf(session)).as(mode + ": after the three turns and the notes with text: " + hits)
            .isEqualTo(hits.size() - 1).isEqualTo(4);
      }
    }
  }

  private static JsonArray session() {
    JsonArray turns = new JsonArray();
    turns.add(record("event", "D1:1", "Ana: Hey Ben, how have you been?", "d", "Hey Ben, how have you been?",
        "owner", "Ana", "at", "2023-05-08"));
    turns.add(record("event", "D1:2", "Ben: We adopted a puppy called Luna…", "d",
        "We adopted a puppy called Luna last Saturday, Ana!", "owner", "Ben", "at", "2023-05-08"));
    turns.add(record("event", "D1:3", "Ana: A puppy! Send me pictures, Ben.", "d", "A puppy! Send me pictures, Ben.",
        "owner", "Ana", "at", "2023-05-08"));
    return turns;
  }

  static List<String> ids(JsonObject answer) {
    return RecallModesTest.ids(answer);
  }
}
