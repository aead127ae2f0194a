package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.IoGate;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_get, clause by clause. */
class GramGetTest extends ReadingTest {
  static final String DOC = "get/doc.gram";

  @BeforeAll
  void fixture() {
    JsonObject dec = record("decision", "dec-1", "Use a cache", "x", "accepted", "tag", "infra", "tag", "perf", "->supports", "goal-1");
    dec.put("blocks", new JsonArray().add(json("{'name':'reason','text':'Reads dominate.\\nWrites are rare.'}")));
    JsonArray records =
        new JsonArray()
            .add(dec)
            .add(record("goal", "goal-1", "Fast pages"))
            .add(record("task", "tsk-1", "Add cache", "x", "open"))
            .add(record("task", "tsk-2", "Tune cache", "x", "open"))
            .add(record("metric", "met-1", "Hit rate", "value", "0.9"))
            .add(record("asset", "ast-1", "Diagram", "ref", "assets/arch.PNG"))
            .add(record("asset", "ast-2", "Spreadsheet", "ref", "assets/data.xlsx"))
            .add(record("evidence", "evd-1", "Benchmark"));
    String body =
        String.join(
            "\n\n",
            "# Cache",
            "Why we cache.",
            "[[tsk-1]]",
            "[[met-1]]",
            "[[ast-1]]",
            "[[ast-2]]",
            "[[dec-1]]",
            "[[ghost]]",
            "[[*]]{type=task view=table}",
            "[[*]]{type=evidence view=list}",
            "[[*]]{type=task}",
            "[[*]]{type=task,evidence}",
            "[[*]]{type=run}",
            "![chart](assets/chart.png)",
            "- one\n- two",
            "---");
    store.create(DOC, "Get fixture", new JsonObject().put("text", body).put("records", records));
  }

  JsonObject get(String args) {
    return ok("gram_get", json(args).put("path", DOC));
  }

  @Test
  void selectedFieldsLinksAndBlocks() {
    JsonObject a = get("{'entity':'dec-1','fields':['t','tag'],'links':true,'blocks':['reason']}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("doc", "entity");
    assertThat(a.getJsonObject("entity")).isEqualTo(json(
        "{'id':'dec-1','type':'decision','fields':{'t':['Use a cache'],'tag':['infra','perf']},"
            + "'links':[['supports','goal-1']],'blocks':{'reason':'Reads dominate.\\nWrites are rare.'}}"));
  }

  @Test
  void withoutSelectionEveryFieldLinksAndEveryBlockButTheBody() {
    JsonObject e = get("{'entity':'dec-1'}").getJsonObject("entity");
    assertThat(e.getJsonObject("fields").fieldNames()).containsExactly("t", "x", "tag");
    assertThat(e.getJsonArray("links")).hasSize(1);
    assertThat(e.getJsonObject("blocks").fieldNames()).containsExactly("reason");
    JsonObject owner = get("{'entity':'doc'}").getJsonObject("entity");
    assertThat(owner.getString("type")).isEqualTo("document");
    assertThat(owner.getString("id")).startsWith("d_");
    assertThat(owner.containsKey("blocks")).isFalse();
    JsonObject body = get("{'entity':'doc','blocks':['rich']}").getJsonObject("entity");
    assertThat(body.getJsonObject("blocks").getString("rich")).startsWith("# Cache\n\nWhy we cache.");
  }

  @Test
  void linksFalseLeavesLinksOutAndAnEntityWithoutLinksHasNoLinksKey() {
    assertThat(get("{'entity':'dec-1','links':false}").getJsonObject("entity").containsKey("links")).isFalse();
    assertThat(get("{'entity':'goal-1','links':true}").getJsonObject("entity").containsKey("links")).isFalse();
  }

  @Test
  void theOwnersOwnIdWorksAsWellAsDoc() {
    String id = get("{'entity':'doc'}").getJsonObject("entity").getString("id");
    assertThat(get("{'entity':'" + id + "'}").getJsonObject("entity").getString("type")).isEqualTo("document");
  }

  @Test
  void anUnknownEntityIsAnArgumentError() {
    ToolResult r = call("gram_get", "{'path':'" + DOC + "','entity':'nope'}");
    assertError(r, "E_ARGUMENT", null);
    assertThat(r.message()).startsWith("No entity nope in " + DOC);
    assertError(call("gram_get", "{'path':'get/missing.gram','entity':'x'}"), "E_ARGUMENT", "Document not found: get/missing.gram");
  }

  @Test
  void outlineListsTopLevelBlocksAsNodeIdNodeTypeShownAsLabel() {
    JsonObject a = get("{'entity':'doc','outline':true}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("doc", "outline");
    JsonArray rows = a.getJsonArray("outline");
    assertThat(rows).hasSize(16);
    List<String> shown = rows.stream().map(r -> ((JsonArray) r).getString(2)).toList();
    assertThat(shown).containsExactly(
        "heading", "paragraph", "task-row", "metric", "image", "line", "line", "unresolved",
        "table", "list", "list", "table", "table", "image", "list", "divider");
    List<String> types = rows.stream().map(r -> ((JsonArray) r).getString(1)).toList();
    assertThat(types).containsExactly(
        "heading", "paragraph", "item", "item", "item", "item", "item", "item",
        "collection", "collection", "collection", "collection", "collection", "image", "list", "divider");
    assertThat(rows.getJsonArray(0).getString(3)).isEqualTo("Cache");
    assertThat(rows.getJsonArray(2).getString(3)).isEqualTo("Add cache");
    assertThat(rows.getJsonArray(7).getString(3)).isEqualTo("ghost");
    // Node ids are the ones edits target, and the same gram_read's outline gives.
    String headingId = rows.getJsonArray(0).getString(0);
    JsonArray readOutline = ok("gram_read", "{'path':'" + DOC + "'}").getJsonArray("outline");
    assertThat(readOutline.getJsonArray(0).getString(2)).isEqualTo(headingId);
  }

  @Test
  void outlineIsAskedOfTheOwner() {
    assertError(call("gram_get", "{'path':'" + DOC + "','entity':'tsk-1','outline':true}"),
        "E_ARGUMENT", "outline lists the document body: ask it of entity doc");
  }

  @Test
  void aPastRevisionRecordedAtOrEffectiveAtIsReadWithAt() {
    String path = "get/history.gram";
    store.create(path, "H", new JsonObject().put("text", "# H").put("records", new JsonArray().add(record("task", "t1", "First title"))),
        "test-agent", "2026-01-01T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    store.patch(path, ops(set("t1", "t", "Second title"), add(record("task", "t2", "New"))), "test-agent", "2026-03-01T00:00:00Z", null);
    DocSnapshot s = store.read(path);
    JsonObject now = ok("gram_get", "{'path':'" + path + "','entity':'t1'}");
    assertThat(now.getJsonObject("entity").getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("Second title");
    assertThat(now.containsKey("at")).isFalse();

    JsonObject r0 = ok("gram_get", "{'path':'" + path + "','entity':'t1','revision':0}");
    assertThat(r0.getJsonObject("entity").getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("First title");
    assertThat(r0.getJsonObject("at")).isEqualTo(new JsonObject()
        .put("at", Times.format(s.revisions().get(0).recordedAt())).put("eff", "2026-01-01T00:00:00Z").put("rev", 0));
    assertThat(r0.getJsonObject("doc").getInteger("rev")).isEqualTo(1);

    JsonObject rec = ok("gram_get", new JsonObject().put("path", path).put("entity", "t1")
        .put("recorded_at", Times.format(s.revisions().get(0).recordedAt())));
    assertThat(rec.getJsonObject("at").getInteger("rev")).isZero();
    JsonObject eff = ok("gram_get", "{'path':'" + path + "','entity':'t1','effective_at':'2026-02'}");
    assertThat(eff.getJsonObject("at").getInteger("rev")).isZero();
    JsonObject eff2 = ok("gram_get", "{'path':'" + path + "','entity':'t1','effective_at':'2026-03-01T00:00:00Z'}");
    assertThat(eff2.getJsonObject("at").getInteger("rev")).isEqualTo(1);

    ToolResult missing = call("gram_get", "{'path':'" + path + "','entity':'t2','revision':0}");
    assertError(missing, "E_ARGUMENT", null);
    assertThat(missing.message()).contains("at revision 0");
    assertError(call("gram_get", "{'path':'" + path + "','entity':'t1','recorded_at':'1999-01-01T00:00:00Z'}"), "E_TIME_NOT_RECORDED", null);
    assertError(call("gram_get", "{'path':'" + path + "','entity':'t1','revision':0,'effective_at':'2026'}"), "E_ARGUMENT",
        "give revision alone, or recorded_at, effective_at or both");
    JsonObject outlineThen = ok("gram_get", "{'path':'" + path + "','entity':'doc','outline':true,'revision':0}");
    assertThat(outlineThen.getJsonObject("at").getInteger("rev")).isZero();
  }

  @Test
  void aPastRevisionOvertakenByAReplacementIsStaleRead() throws Exception {
    String path = "get/overtaken.gram";
    store.create(path, "O", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A"))));
    store.patch(path, ops(set("a", "t", "A2")));
    String replacement = dev.gram.format.GramWriter.write(store.read(path).state().withOwner(
        store.read(path).state().owner().withField("d", List.of("replaced"))));
    ToolResult r;
    try (IoGate gate = IoGate.close(server.services().vault())) {
      writeText(store.vault().paths().document(path).file(), replacement);
      store.vault().refresh(store.vault().paths().document(path));
      gate.awaitQueued(1);
      CompletableFuture<ToolResult> call = CompletableFuture.supplyAsync(() -> call("gram_get", "{'path':'" + path + "','entity':'a','revision':0}"));
      gate.awaitQueued(2);
      gate.releaseOne();
      r = call.get();
    }
    assertError(r, "STALE_READ", "The document changed while it was read; read again");
    // Read again: the replaced file is a history of its own, whose revision 0 is what it holds.
    assertThat(ok("gram_get", "{'path':'" + path + "','entity':'a','revision':0}").getJsonObject("entity")
        .getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("A2");
  }

  @Test
  void anEntityLargerThanTheBudgetIsEContextBudget() {
    String path = "get/huge.gram";
    JsonObject big = record("knowledge", "k", "Big");
    big.put("blocks", new JsonArray().add(new JsonObject().put("name", "summary").put("text", "x".repeat(20_000))));
    store.create(path, "Huge", new JsonObject().put("records", new JsonArray().add(big)));
    assertError(call("gram_get", "{'path':'" + path + "','entity':'k'}"), "E_CONTEXT_BUDGET", null);
    assertThat(ok("gram_get", "{'path':'" + path + "','entity':'k','blocks':[]}").getJsonObject("entity").containsKey("blocks")).isFalse();
  }
}
