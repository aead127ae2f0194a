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
 * Asked when they leave for the cabin, an agent gets the turns of the session about the cabin
 * before a lone turn of another session that only shares the word "leave" ({@link
 * DocumentSupport}, in hybrid and so in {@code auto}).
 */
class DocumentSupportRecallTest {
  @TempDir Path dir;

  @Test
  void theTurnsOfTheSessionThatMatchesComeBeforeALoneTurnElsewhere() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--semantic")) {
      Fixtures.create(s, "talk/session-4.gram", "Session 4", new JsonObject().put("records", new JsonArray()
          .add(record("event", "T1", "Ana: we booked the", "d", "We booked the cabin by the lake for the whole family.",
              "owner", "Ana"))
          .add(record("event", "T2", "Ben: great, the kid", "d", "Great, the kids will love the cabin.", "owner", "Ben"))
          .add(record("event", "T3", "Ana: we leave on the", "d", "We leave on the first Saturday of June.",
              "owner", "Ana"))));
      Fixtures.create(s, "talk/session-9.gram", "Session 9", new JsonObject().put("records", new JsonArray()
          .add(record("event", "T1", "Ben: my boss leaves", "d", "My boss leaves for his holiday on Saturday.",
              "owner", "Ben"))
          .add(record("event", "T2", "Ana: the new bakery", "d", "The new bakery on the corner opened today.",
              "owner", "Ana"))));
      Fixtures.awaitEmbedded(s);
      JsonObject hybrid = s.call("gram_recall", new JsonObject().put("query", "When do they leave for the cabin?")
          .put("mode", "hybrid").put("folder", "talk")).ok();
      List<String> hits = DocumentHitsTest.ids(hybrid);
      assertThat(hits).as(hybrid.encode()).startsWith("talk/session-4.gram#T3");
      // By its own scores the boss's turn (it shares "leave") comes second, before "the kids will
      // love the cabin": without the document's support this fails (checked with the weight at 0).
      assertThat(hits.indexOf("talk/session-4.gram#T2")).as(hybrid.encode())
          .isLessThan(hits.indexOf("talk/session-9.gram#T1"));
    }
  }
}
