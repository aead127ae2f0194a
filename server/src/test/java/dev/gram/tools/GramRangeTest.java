package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_range, clause by clause. */
class GramRangeTest extends ReadingTest {
  static final String DOC = "range/doc.gram";
  DocSnapshot s;

  @BeforeAll
  void fixture() {
    store.create(DOC, "Range", new JsonObject().put("records", new JsonArray().add(record("task", "t1", "Pour concrete"))),
        "agent-a", "2026-01-01T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    store.patch(DOC, ops(add(record("risk", "r1", "Frost damage", "x", "open"))), "agent-b", null, "req-frost");
    store.patch(DOC, ops(set("t1", "x", "done")), "agent-a", "2026-02-01T00:00:00Z", "req-done");
    store.patch(DOC, ops(set("r1", "d", "Frost could crack the concrete slab")), "agent-c", null, "req-frost-2");
    for (int i = 0; i < 6; i++) {
      store.patch(DOC, ops(set("doc", "d", "note " + i)), "agent-a", null, null);
    }
    s = store.read(DOC);
  }

  @Test
  void eventsCarryActorAgentRecordedAtRevisionAndWhatTheyHave() {
    JsonObject a = ok("gram_range", "{'path':'" + DOC + "'}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("doc", "events");
    assertThat(a.getJsonObject("doc")).isEqualTo(new JsonObject().put("hash", s.shortHash()).put("path", DOC).put("rev", 9));
    JsonArray events = a.getJsonArray("events");
    assertThat(events).hasSize(10);
    assertThat(events.getJsonObject(0)).isEqualTo(new JsonObject()
        .put("actor", "agent").put("agent", "agent-a").put("recorded_at", Times.format(s.revisions().get(0).recordedAt()))
        .put("revision", 0).put("effective_at", "2026-01-01T00:00:00Z"));
    assertThat(events.getJsonObject(1)).isEqualTo(new JsonObject()
        .put("actor", "agent").put("agent", "agent-b").put("recorded_at", Times.format(s.revisions().get(1).recordedAt()))
        .put("revision", 1).put("request_id", "req-frost").put("request_digest", s.revisions().get(1).digest().substring(0, 16)));
    assertThat(events.getJsonObject(2).getString("effective_at")).isEqualTo("2026-02-01T00:00:00Z");
  }

  @Test
  void externalEditsAndImportedFilesHaveTheirActors() {
    String imported = "range/imported.gram";
    store.writeFile(imported, GramWriter.write(dev.gram.edit.Creation.build("d_imp1", "Imported", "text", id -> false).state()));
    JsonObject i = ok("gram_range", "{'path':'" + imported + "'}").getJsonArray("events").getJsonObject(0);
    assertThat(i.getString("actor")).isEqualTo("import");
    assertThat(i.getString("agent")).isEqualTo("import");

    String edited = "range/edited.gram";
    store.create(edited, "Edited", "text");
    GramFile file = GramParser.parseOrThrow(store.fileText(edited));
    store.writeFile(edited, new GramFile(file.state().withOwner(file.state().owner().withField("d", List.of("by hand"))),
        file.history(), file.headRev(), file.headChain()).write());
    JsonArray events = ok("gram_range", "{'path':'" + edited + "'}").getJsonArray("events");
    assertThat(events).hasSize(2);
    assertThat(events.getJsonObject(1).getString("actor")).isEqualTo("external");
  }

  @Test
  void startAndLimitPageAndNextStartContinues() {
    JsonObject p1 = ok("gram_range", "{'path':'" + DOC + "','limit':4}");
    assertThat(p1.getJsonArray("events").stream().map(e -> ((JsonObject) e).getInteger("revision")).toList()).containsExactly(0, 1, 2, 3);
    assertThat(p1.getInteger("next_start")).isEqualTo(4);
    JsonObject p2 = ok("gram_range", "{'path':'" + DOC + "','start':4,'limit':4}");
    assertThat(p2.getJsonArray("events").getJsonObject(0).getInteger("revision")).isEqualTo(4);
    JsonObject p3 = ok("gram_range", "{'path':'" + DOC + "','start':8,'limit':4}");
    assertThat(p3.getJsonArray("events")).hasSize(2);
    assertThat(p3.containsKey("next_start")).isFalse();
    assertThat(ok("gram_range", "{'path':'" + DOC + "','start':50}").getJsonArray("events")).isEmpty();
    assertError(call("gram_range", "{'path':'" + DOC + "','limit':101}"), "E_ARGUMENT", null);
  }

  @Test
  void withQueryOnlyTheRelevantChangesRankedWithScoreAndMatched() {
    JsonObject a = ok("gram_range", "{'path':'" + DOC + "','query':'frost'}");
    JsonArray events = a.getJsonArray("events");
    assertThat(events.stream().map(e -> ((JsonObject) e).getInteger("revision")).toList()).containsExactlyInAnyOrder(1, 3);
    for (Object o : events) {
      JsonObject e = (JsonObject) o;
      assertThat(e.getDouble("score")).isPositive();
      assertThat(e.getJsonArray("matched")).containsExactly("r1");
    }
    assertThat(events.getJsonObject(0).getDouble("score")).isGreaterThanOrEqualTo(events.getJsonObject(1).getDouble("score"));
    // Changed values count: revision 3 only set r1's description, which mentions the slab.
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'slab'}").getJsonArray("events").stream()
        .map(e -> ((JsonObject) e).getInteger("revision")).toList()).containsExactly(3);
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'concrete','top_k':1}").getJsonArray("events")).hasSize(1);
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'frost','start':2}").getJsonArray("events").stream()
        .map(e -> ((JsonObject) e).getInteger("revision")).toList()).containsExactly(3);
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'zeppelin'}").getJsonArray("events")).isEmpty();
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'frost','start':1000}").getJsonArray("events"))
        .as("a start past the last revision matches nothing").isEmpty();
    // Who made a change counts too: agent-c made revision 3 only, which ranks first.
    assertThat(ok("gram_range", "{'path':'" + DOC + "','query':'agent-c'}").getJsonArray("events").getJsonObject(0)
        .getInteger("revision")).isEqualTo(3);
  }

  @Test
  void expectedHashGuardsTheRead() {
    assertThat(ok("gram_range", "{'path':'" + DOC + "','expected_hash':'" + s.shortHash() + "','limit':1}").getJsonArray("events")).hasSize(1);
    assertThat(ok("gram_range", "{'path':'" + DOC + "','expected_hash':'" + s.hash().toUpperCase(Locale.ROOT) + "','limit':1}")
        .getJsonArray("events")).hasSize(1);
    ToolResult r = call("gram_range", "{'path':'" + DOC + "','expected_hash':'0123456789abcdef'}");
    assertError(r, "STALE_READ", "The document changed while it was read; read again");
    assertThat(r.details()).isEqualTo(new JsonObject().put("hash", s.shortHash()).put("path", DOC).put("rev", 9).put("expected_hash", "0123456789abcdef"));
  }
}
