package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.IoGate;
import dev.gram.testing.ManualClock;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_state, clause by clause: each selector, one entity in full, paging, each cursor error. */
class GramStateTest extends ReadingTest {
  /** Recorded times set by hand, a second apart, instead of sleeping for distinct ones. */
  final ManualClock time = new ManualClock(java.time.Instant.parse("2026-03-01T09:00:00Z"));

  @Override
  java.time.Clock clock() {
    return time;
  }

  static final String DOC = "state/doc.gram";
  DocSnapshot history;

  @BeforeAll
  void fixture() {
    store.create(DOC, "State v0", new JsonObject().put("text", "# Body v0")
            .put("records", new JsonArray().add(record("task", "t1", "One", "x", "open"))),
        "agent-a", "2026-01-10T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(DOC, ops(set("doc", "t", "State v1"), add(record("task", "t2", "Two", "->depends", "t1"))), "agent-b", null, null);
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(DOC, ops(set("t1", "x", "completed")), "agent-c", "2026-01-05T00:00:00Z", null);
    history = store.read(DOC);
    time.advance(java.time.Duration.ofSeconds(1)); // every revision is settled by now
  }

  String recorded(int rev) {
    return Times.format(history.revisions().get(rev).recordedAt());
  }

  JsonObject state(String selector) {
    return ok("gram_state", new JsonObject().put("path", DOC).put("selector", json(selector)));
  }

  @Test
  void aRevisionAnswersAtDocEntitiesAndTitle() {
    JsonObject a = state("{'revision':0}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("at", "doc", "entities", "title");
    assertThat(a.getJsonObject("at")).isEqualTo(new JsonObject().put("at", recorded(0)).put("eff", "2026-01-10T00:00:00Z").put("rev", 0));
    assertThat(a.getJsonObject("doc")).isEqualTo(new JsonObject().put("hash", history.shortHash()).put("path", DOC).put("rev", 2));
    assertThat(a.getJsonArray("entities")).isEqualTo(array("[['t1','task','One']]"));
    assertThat(a.getString("title")).isEqualTo("State v0");
    JsonObject r1 = state("{'revision':1}");
    assertThat(r1.getJsonObject("at").getValue("eff")).isNull();
    assertThat(r1.getJsonObject("at").containsKey("eff")).isTrue();
    assertThat(r1.getString("title")).isEqualTo("State v1");
    assertThat(r1.getJsonArray("entities")).isEqualTo(array("[['t1','task','One'],['t2','task','Two']]"));
  }

  @Test
  void recordedAtIsTheNewestRevisionWrittenByThen() {
    assertThat(state("{'recorded_at':'" + recorded(1) + "'}").getJsonObject("at").getInteger("rev")).isEqualTo(1);
    String justBefore = Times.format(history.revisions().get(1).recordedAt().minusMillis(1));
    assertThat(state("{'recorded_at':'" + justBefore + "'}").getJsonObject("at").getInteger("rev")).isZero();
    assertThat(state("{'recorded_at':'2999-01-01'}").getJsonObject("at").getInteger("rev")).isEqualTo(2);
  }

  @Test
  void effectiveAtIsTheNewestRevisionWhoseFactsHadHappened() {
    // Revision 2 says its facts happened on January 5th, before revision 0's January 10th.
    assertThat(state("{'effective_at':'2026-01-07'}").getJsonObject("at").getInteger("rev")).isEqualTo(2);
    // Revision 1 gave no effective time: it happened when it was recorded.
    assertThat(state("{'effective_at':'" + recorded(1) + "'}").getJsonObject("at").getInteger("rev")).isEqualTo(2);
    assertError(call("gram_state", new JsonObject().put("path", DOC).put("selector", json("{'effective_at':'2026-01-04'}"))),
        "E_TIME_NOT_RECORDED", null);
  }

  @Test
  void aTimeBeforeTheFirstRevisionIsETimeNotRecorded() {
    ToolResult r = call("gram_state", new JsonObject().put("path", DOC).put("selector", json("{'recorded_at':'2000-01-01T00:00:00Z'}")));
    assertError(r, "E_TIME_NOT_RECORDED", null);
    assertThat(r.details().getString("first_recorded_at")).isEqualTo(recorded(0));
  }

  @Test
  void theSelectorNamesExactlyOneRevision() {
    assertError(call("gram_state", "{'path':'" + DOC + "','selector':{}}"), "E_ARGUMENT", "selector needs one of revision, recorded_at or effective_at");
    assertError(call("gram_state", "{'path':'" + DOC + "','selector':{'revision':0,'recorded_at':'2026'}}"), "E_ARGUMENT",
        "give revision alone, or recorded_at, effective_at or both");
    assertError(call("gram_state", "{'path':'" + DOC + "','selector':{'revision':7}}"), "E_ARGUMENT", null);
    assertError(call("gram_state", "{'path':'" + DOC + "','selector':{'recorded_at':'yesterday'}}"), "E_ARGUMENT", null);
  }

  @Test
  void oneEntityInFull() {
    JsonObject a = ok("gram_state", "{'path':'" + DOC + "','selector':{'revision':1},'entity':'t2'}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("at", "doc", "entity", "title");
    assertThat(a.getJsonObject("entity")).isEqualTo(json("{'id':'t2','type':'task','fields':{'t':['Two']},'links':[['depends','t1']]}"));
    JsonObject owner = ok("gram_state", "{'path':'" + DOC + "','selector':{'revision':0},'entity':'doc'}").getJsonObject("entity");
    assertThat(owner.getJsonObject("blocks").getString("rich")).isEqualTo("# Body v0");
    assertThat(owner.getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("State v0");
    assertError(call("gram_state", "{'path':'" + DOC + "','selector':{'revision':0},'entity':'t2'}"), "E_ARGUMENT", null);
  }

  // ---------------------------------------------------------------- big documents

  String bigDocument(String path, int records) {
    JsonArray recs = new JsonArray();
    for (int i = 0; i < records; i++) {
      recs.add(record("knowledge", "k-" + i, "A knowledge record with a long enough title number " + i));
    }
    store.create(path, "Big", new JsonObject().put("text", "# Big\n\n" + "Long body line. ".repeat(3000)).put("records", recs));
    return path;
  }

  @Test
  void bigDocumentsPageTheirEntitiesWithMore() {
    String path = bigDocument("state/big.gram", 600);
    List<Object> all = new ArrayList<>();
    JsonObject page = ok("gram_state", "{'path':'" + path + "','selector':{'revision':0}}");
    int pages = 1;
    all.addAll(page.getJsonArray("entities").getList());
    while (page.containsKey("more")) {
      page = ok("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':0}")).put("cursor", page.getString("more")));
      all.addAll(page.getJsonArray("entities").getList());
      pages++;
    }
    assertThat(pages).isGreaterThan(1);
    assertThat(all).hasSize(600);
    assertThat(new JsonArray(all).getJsonArray(599).getString(0)).isEqualTo("k-599");
  }

  @Test
  void aBigEntityPagesItsBlocks() {
    String path = bigDocument("state/big-body.gram", 1);
    StringBuilder body = new StringBuilder();
    JsonObject page = ok("gram_state", "{'path':'" + path + "','selector':{'revision':0},'entity':'doc'}");
    assertThat(page.getJsonObject("entity").getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("Big");
    body.append(page.getJsonObject("entity").getJsonObject("blocks").getString("rich"));
    int pages = 1;
    while (page.containsKey("more")) {
      page = ok("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':0}")).put("entity", "doc").put("cursor", page.getString("more")));
      assertThat(page.getJsonObject("entity").containsKey("fields")).isFalse();
      body.append(page.getJsonObject("entity").getJsonObject("blocks").getString("rich"));
      pages++;
    }
    assertThat(pages).isGreaterThan(2);
    assertThat(body.toString()).isEqualTo(store.read(path).state().body());
  }

  String firstCursor(String path) {
    String more = ok("gram_state", "{'path':'" + path + "','selector':{'revision':0}}").getString("more");
    assertThat(more).isNotNull();
    return more;
  }

  @Test
  void aMalformedCursorIsECursorInvalidStateCursor() {
    String path = bigDocument("state/cursor-malformed.gram", 600);
    String more = firstCursor(path);
    assertError(call("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':0}")).put("cursor", malformed(more))),
        "E_CURSOR", "Invalid state cursor");
    assertError(call("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':0}")).put("cursor", "x")),
        "E_CURSOR", "Invalid state cursor");
  }

  @Test
  void aCursorOfAnotherDocumentOrRevisionIsStaleCursor() {
    String a = bigDocument("state/cursor-a.gram", 600);
    String b = bigDocument("state/cursor-b.gram", 600);
    String more = firstCursor(a);
    assertError(call("gram_state", new JsonObject().put("path", b).put("selector", json("{'revision':0}")).put("cursor", more)),
        "STALE_CURSOR", "Cursor belongs to another document or revision");
    store.patch(a, ops(set("doc", "d", "later")));
    assertError(call("gram_state", new JsonObject().put("path", a).put("selector", json("{'revision':1}")).put("cursor", more)),
        "STALE_CURSOR", "Cursor belongs to another document or revision");
    assertError(call("gram_state", new JsonObject().put("path", a).put("selector", json("{'revision':0}")).put("entity", "doc").put("cursor", more)),
        "STALE_CURSOR", "Cursor belongs to another document or revision");
    // A new commit does not change revision 0: its cursor still continues.
    assertThat(ok("gram_state", new JsonObject().put("path", a).put("selector", json("{'revision':0}")).put("cursor", more))
        .getJsonArray("entities")).isNotEmpty();
  }

  @Test
  void aCursorIntoAReplacedDocumentIsStaleRead() {
    String path = bigDocument("state/cursor-replaced.gram", 600);
    String more = firstCursor(path);
    store.deleteFile(path);
    bigDocument(path, 601);
    assertError(call("gram_state", new JsonObject().put("path", path).put("selector", json("{'revision':0}")).put("cursor", more)),
        "STALE_READ", "The document was replaced while it was read");
  }

  @Test
  void aPastRevisionOvertakenByAReplacementIsStaleRead() throws Exception {
    String path = "state/overtaken.gram";
    store.create(path, "O", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A"))));
    store.patch(path, ops(set("a", "t", "A2")));
    String replacement = dev.gram.format.GramWriter.write(store.read(path).state().withOwner(
        store.read(path).state().owner().withField("d", List.of("replaced"))));
    ToolResult r;
    try (IoGate gate = IoGate.close(server.services().vault())) {
      writeText(store.vault().paths().document(path).file(), replacement);
      store.vault().refresh(store.vault().paths().document(path));
      gate.awaitQueued(1);
      CompletableFuture<ToolResult> call = CompletableFuture.supplyAsync(() -> call("gram_state", "{'path':'" + path + "','selector':{'revision':0}}"));
      gate.awaitQueued(2);
      gate.releaseOne();
      r = call.get();
    }
    assertError(r, "STALE_READ", "The document was replaced while it was read");
  }
}
