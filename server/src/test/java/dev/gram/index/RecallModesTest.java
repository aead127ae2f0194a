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

/** Each mode, on one small vault with the embedding model loaded. */
class RecallModesTest {
  @TempDir static Path dir;
  static GramTestServer server;
  static final String DOC = "descriptor-fixture/doc.gram";

  @BeforeAll
  static void start() {
    server = GramTestServer.start(dir.resolve("vault"), "--semantic");
    // The contract's own example: a decision, evidence, and a body section naming both.
    Fixtures.create(server, DOC, "Lunar migration decision",
        new JsonObject()
            .put("text", "# Descriptor fixture\n\nLunar migration evidence tracks the migration decision.")
            .put("records", new JsonArray()
                .add(record("decision", "d1", "Lunar migration decision", "d", "Initial decision description"))
                .add(record("evidence", "e1", "Lunar migration evidence"))));
    Fixtures.create(server, "cafe/notes.gram", "Café notes",
        new JsonObject()
            .put("text", "# Opening\n\nThe espresso machine arrives on Monday.\n\n## Staff\n\nTwo baristas start in the first week.")
            .put("records", new JsonArray()
                .add(record("event", "ev1", "Café opening party", "at", "2026-11-14"))
                .add(record("task", "t1", "Order oat milk", "d", "The kiosk in the harbour needs a second supplier"))
                .add(record("task", "t2", "Repaint the harbour kiosk", "x", "open"))
                .add(record("knowledge", "k1", "Grinder settings for a light roast", "d", "Grind finer when the beans are fresh"))));
    Fixtures.awaitEmbedded(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static JsonObject recall(String query, String mode) {
    JsonObject args = new JsonObject().put("query", query);
    if (mode != null) {
      args.put("mode", mode);
    }
    return server.call("gram_recall", args).ok();
  }

  static List<String> ids(JsonObject answer) {
    List<String> out = new ArrayList<>();
    JsonArray hits = answer.getJsonArray("hits");
    for (int i = 0; i < hits.size(); i++) {
      out.add(hits.getJsonArray(i).getString(0));
    }
    return out;
  }

  static String docHit() {
    String id = server.services().vault().peek(DOC).state().id();
    return DOC + "#" + id;
  }

  @Test
  void keywordAnswersInTheContractShape() {
    JsonObject a = recall("lunar migration evidence", "keyword");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("docs", "hits");
    JsonArray docs = a.getJsonArray("docs");
    assertThat(docs.size()).isEqualTo(1);
    assertThat(docs.getJsonObject(0).fieldNames()).containsExactlyInAnyOrder("hash", "path", "rev");
    assertThat(docs.getJsonObject(0).getString("path")).isEqualTo(DOC);
    assertThat(docs.getJsonObject(0).getString("hash")).matches("[0-9a-f]{16}");
    assertThat(docs.getJsonObject(0).getInteger("rev")).isZero();
    List<String> ids = ids(a);
    assertThat(ids.subList(0, 2)).containsExactlyInAnyOrder(DOC + "#e1", docHit());
    for (Object o : a.getJsonArray("hits")) {
      JsonArray h = (JsonArray) o;
      if (h.getString(0).equals(docHit())) {
        assertThat(h).isEqualTo(new JsonArray().add(docHit()).add("document").add("Lunar migration decision")
            .addNull().add("section: Descriptor fixture"));
      }
      if (h.getString(0).equals(DOC + "#e1")) {
        assertThat(h).isEqualTo(new JsonArray().add(DOC + "#e1").add("evidence").add("Lunar migration evidence").addNull());
      }
    }
  }

  @Test
  void keywordStemsFoldsAndRanksTitlesAboveBodies() {
    // Another form of the word, and no accent where the text has one.
    assertThat(ids(recall("migrations", "keyword"))).contains(DOC + "#e1", DOC + "#d1");
    assertThat(ids(recall("cafe opening", "keyword")).get(0)).isEqualTo("cafe/notes.gram#ev1");
    // "harbour kiosk" is t2's title and only t1's description.
    List<String> ids = ids(recall("harbour kiosk", "keyword"));
    assertThat(ids.indexOf("cafe/notes.gram#t2")).isLessThan(ids.indexOf("cafe/notes.gram#t1"));
    // A word written wrong still finds what was meant.
    assertThat(ids(recall("grindr settings", "keyword"))).first().isEqualTo("cafe/notes.gram#k1");
  }

  @Test
  void exactMatchesTheWordsAsWrittenInOrderInAnyCase() {
    assertThat(ids(recall("LUNAR MIGRATION EVIDENCE", "exact"))).containsExactlyInAnyOrder(DOC + "#e1", docHit());
    assertThat(ids(recall("\"migration decision\"", "exact"))).contains(DOC + "#d1", docHit());
    // Order matters, and no other form of a word is found.
    assertThat(ids(recall("evidence migration lunar", "exact"))).isEmpty();
    assertThat(ids(recall("migrations", "exact"))).isEmpty();
    // Punctuation between words is not compared; accents are.
    assertThat(ids(recall("lunar-migration", "exact"))).contains(DOC + "#e1");
    assertThat(ids(recall("cafe", "exact"))).isEmpty();
    assertThat(ids(recall("café", "exact"))).contains("cafe/notes.gram#ev1");
    // An id is a word of its own.
    assertThat(ids(recall("t2", "exact"))).containsExactly("cafe/notes.gram#t2");
  }

  @Test
  void semanticFindsByMeaningAndEndsEachHitWithItsCosine() {
    JsonObject a = recall("what should the coffee grinder be set to", "semantic");
    assertThat(a.containsKey("fallback")).isFalse();
    assertThat(ids(a).get(0)).isEqualTo("cafe/notes.gram#k1");
    double previous = 2;
    for (Object o : a.getJsonArray("hits")) {
      JsonArray h = (JsonArray) o;
      assertThat(h.size()).isEqualTo(6);
      double cos = h.getDouble(5);
      assertThat(cos).isBetween(-1.0, 1.0).isLessThanOrEqualTo(previous);
      previous = cos;
    }
    // A document hit names its section even when found by meaning.
    JsonArray doc = a.getJsonArray("hits").stream().map(JsonArray.class::cast)
        .filter(h -> h.getString(1).equals("document") && h.getString(0).startsWith("cafe/")).findFirst().orElseThrow();
    assertThat(doc.getString(4)).startsWith("section: Opening");
  }

  @Test
  void hybridFusesBothRankingsAndReportsCosines() {
    JsonObject a = recall("t2 barista staffing", "hybrid");
    List<String> ids = ids(a);
    // The id is found lexically, the staff section by meaning.
    assertThat(ids).contains("cafe/notes.gram#t2");
    assertThat(ids.subList(0, 3)).anyMatch(id -> id.startsWith("cafe/notes.gram#d_"));
    for (Object o : a.getJsonArray("hits")) {
      assertThat(((JsonArray) o).size()).isEqualTo(6);
    }
    assertThat(a.containsKey("mode")).isFalse();
  }

  @Test
  void autoPicksAModeAndSaysWhich() {
    assertThat(recall("\"oat milk\"", null).getString("mode")).isEqualTo("exact");
    assertThat(recall("t1", "auto").getString("mode")).isEqualTo("keyword");
    assertThat(recall("2026-11", "auto").getString("mode")).isEqualTo("keyword");
    // A question: both rankings, fused (docs/recall.md measures why).
    JsonObject q = recall("when does the café open its doors?", "auto");
    assertThat(q.getString("mode")).isEqualTo("hybrid");
    assertThat(ids(q).get(0)).isEqualTo("cafe/notes.gram#ev1");
    assertThat(recall("harbour kiosk supplier", "auto").getString("mode")).isEqualTo("hybrid");
  }

  @Test
  void anEmptyQueryIsRefused() {
    assertThat(server.call("gram_recall", new JsonObject().put("query", "  ")).code()).isEqualTo("E_ARGUMENT");
  }
}
