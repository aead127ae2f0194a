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
 * Asked about a person, an agent gets that person's own record before another's about them: Maya
 * wrote that Omar liked the lighthouse trip, Omar wrote how the walk up the lighthouse was, and
 * the question is what Omar thought of it.
 */
class NamedOwnersTest {
  @TempDir Path dir;

  @Test
  void theRecordOfThePersonAQuestionNamesComesBeforeAnotherAboutThem() {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--semantic")) {
      // Each in a document of its own: a neighbouring turn's words would be read into its vector.
      Fixtures.create(s, "trips/maya.gram", "Notes m", new JsonObject().put("records", new JsonArray().add(
          record("event", "E1", "Omar told me the lig", "d", "Omar told me the lighthouse trip was wonderful.",
              "owner", "Maya"))));
      Fixtures.create(s, "trips/omar.gram", "Notes o", new JsonObject().put("records", new JsonArray().add(
          record("event", "E1", "The walk up the ligh", "d", "The walk up the lighthouse was nice, good views.",
              "owner", "Omar"))));
      Fixtures.awaitEmbedded(s);
      JsonObject ask = new JsonObject().put("query", "What did Omar think of the lighthouse trip?");
      // By meaning alone, Maya's sentence is the nearer (cosine 0.780 against 0.757 with
      // bge-small): without the owner's bonus this fails.
      JsonObject semantic = s.call("gram_recall", ask.copy().put("mode", "semantic")).ok();
      assertThat(records(semantic)).as(semantic.encode()).containsExactly("trips/omar.gram#E1", "trips/maya.gram#E1");
      // Hybrid: the keyword ranking's owner boost already puts Omar's first here; the bonus
      // after fusion must keep it so.
      JsonObject hybrid = s.call("gram_recall", ask.copy().put("mode", "hybrid")).ok();
      assertThat(records(hybrid)).as(hybrid.encode()).containsExactly("trips/omar.gram#E1", "trips/maya.gram#E1");
    }
  }

  /** The records among the hits (the two documents are found by their titles too, after them). */
  private static List<String> records(JsonObject answer) {
    return DocumentHitsTest.ids(answer).stream().filter(h -> h.endsWith("#E1")).toList();
  }
}
