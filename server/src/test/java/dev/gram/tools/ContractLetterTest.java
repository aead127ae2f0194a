package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Small points of the contract that a client notices, each over the real transport. */
class ContractLetterTest extends ReadingTest {

  @Test
  void capabilitiesListsTheToolsInTheContractsOrder() {
    JsonObject a = ok("gram_capabilities", "{}");
    assertThat(a.getJsonArray("tools").getList())
        .containsExactly(
            "gram_profile", "gram_capabilities", "gram_projects", "gram_brief", "gram_read",
            "gram_changes", "gram_recall", "gram_list", "gram_get", "gram_context", "gram_relations",
            "gram_range", "gram_state", "gram_create", "gram_patch");
  }

  @Test
  void relationsWithoutEdgesStillNameTheStartingDocument() {
    String path = "letter/alone.gram";
    store.create(path, "Alone", new JsonObject().put("records", new JsonArray().add(record("task", "t", "T"))));
    JsonObject a = ok("gram_relations", "{'from':{'path':'" + path + "','entity':'t'}}");
    assertThat(a.getJsonArray("edges")).isEmpty();
    var s = store.read(path);
    assertThat(a.getJsonArray("docs"))
        .containsExactly(new JsonObject().put("hash", s.shortHash()).put("path", path).put("rev", s.rev()));
  }

  @Test
  void aListCursorIntoAReplacedDocumentSendsTheCallerToItsCurrentRevision() {
    String path = "letter/replaced.gram";
    store.create(path, "R", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A")).add(record("task", "b", "B"))));
    String more = ok("gram_list", "{'path':'" + path + "','limit':1}").getString("more");
    store.deleteFile(path);
    store.create(path, "R2", new JsonObject().put("records", new JsonArray().add(record("task", "z", "Z")).add(record("task", "y", "Y"))));
    store.patch(path, ops(set("z", "s", "active")));
    store.patch(path, ops(set("y", "s", "active")));
    ToolResult r = call("gram_list", new JsonObject().put("path", path).put("limit", 1).put("cursor", more));
    assertError(r, "STALE_READ", "The document changed while it was read; read again");
    var now = store.read(path);
    assertThat(r.details().getInteger("rev")).as("the document's current rev, not the cursor's").isEqualTo(2).isEqualTo(now.rev());
    assertThat(r.details().getString("hash")).isEqualTo(now.shortHash());
  }

  @Test
  void aStateCursorWhoseRevisionNoLongerExistsIsStaleRead() {
    String path = "letter/state.gram";
    JsonArray records = new JsonArray();
    for (int i = 0; i < 300; i++) {
      records.add(record("task", "t" + i, "Task " + i + " " + "with a title long enough to need more than one page ".repeat(3)));
    }
    store.create(path, "S", new JsonObject().put("records", records));
    store.patch(path, ops(set("t1", "s", "active")));
    store.patch(path, ops(add(record("task", "extra", "Extra"))));
    JsonObject first = ok("gram_state", "{'path':'" + path + "','selector':{'revision':2}}");
    String more = first.getString("more");
    assertThat(more).isNotNull();
    store.deleteFile(path);
    store.create(path, "S2", "# fresh");
    ToolResult r = call("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':2}")).put("cursor", more));
    assertThat(r.code()).isEqualTo("STALE_READ");
    assertThat(r.details().getInteger("rev")).isZero();
  }
}
