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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_list, clause by clause: listings, select and every date rule, paging and cursors. */
class GramListTest extends ReadingTest {
  static final String DATES = "list/dates.gram";

  @BeforeAll
  void fixture() {
    JsonArray records =
        new JsonArray()
            .add(record("event", "evt-a", "Day event", "at", "2026-03-01"))
            .add(record("event", "evt-b", "Late event", "at", "2026-03-31T23:59:00Z"))
            .add(record("event", "evt-c", "April event", "at", "2026-04-01T00:00:00Z"))
            .add(record("event", "evt-d", "Month event", "at", "2026-03"))
            .add(record("event", "evt-e", "Last year event", "at", "2025-12-31"))
            .add(record("event", "evt-f", "Undated event"))
            .add(record("metric", "met-a", "Observed metric", "observed", "2026-03-15T08:00:00Z", "value", "1", "at", "2027-01-01"))
            .add(record("task", "tsk-a", "Due task", "due", "2026-03-20", "x", "open", "tag", "infra", "at", "2027-01-01"))
            .add(record("decision", "dec-a", "Dated decision", "at", "2026-03-10", "x", "accepted"))
            .add(record("knowledge", "knw-a", "Dated note", "at", "2026-03-12"))
            .add(record("task", "tsk-b", "Started task", "due", "2026-05-01", "x", "completed", "tag", "ux", "start", "2026-03-03"));
    store.create(DATES, "Dates", new JsonObject().put("text", "# Dates").put("records", records));
  }

  JsonObject select(String selectJson) {
    return ok("gram_list", new JsonObject().put("path", DATES).put("select", json(selectJson)));
  }

  static List<String> ids(JsonObject answer) {
    List<String> out = new ArrayList<>();
    for (Object o : answer.getJsonArray("records")) {
      String first = ((JsonArray) o).getString(0);
      out.add(first.substring(first.indexOf('#') + 1));
    }
    return out;
  }

  // ---------------------------------------------------------------- listings

  @Test
  void withoutPathEveryDocumentIsListedAsPathTitleRevByPath() {
    store.create("list/aa/one.gram", "One", "text");
    store.create("other/two.gram", "Two", "text");
    store.patch("other/two.gram", ops(set("doc", "d", "x")));
    JsonObject a = ok("gram_list", "{}");
    List<Object> rows = a.getJsonArray("docs").getList();
    List<DocSnapshot> all = server.services().vault().documents();
    assertThat(rows).hasSize(all.size());
    for (int i = 0; i < all.size(); i++) {
      DocSnapshot s = all.get(i);
      assertThat(a.getJsonArray("docs").getJsonArray(i)).isEqualTo(new JsonArray().add(s.path()).add(s.state().title()).add(s.rev()));
    }
    assertThat(a.getJsonArray("docs")).contains(array("['other/two.gram','Two',1]"), array("['list/aa/one.gram','One',0]"));
  }

  @Test
  void aFolderListsTheDocumentsUnderIt() {
    store.create("folder-a/x.gram", "X", "x");
    store.create("folder-a/sub/y.gram", "Y", "y");
    store.create("folder-b/z.gram", "Z", "z");
    JsonObject a = ok("gram_list", "{'path':'folder-a'}");
    assertThat(a.getJsonArray("docs")).containsExactly(array("['folder-a/sub/y.gram','Y',0]"), array("['folder-a/x.gram','X',0]"));
    assertError(call("gram_list", "{'path':'no-such-folder'}"), "E_ARGUMENT", "Folder not found: no-such-folder");
  }

  @Test
  void aGramPathListsItsEntityIdsInSourceOrder() {
    JsonObject a = ok("gram_list", "{'path':'" + DATES + "'}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("doc", "entities");
    assertThat(a.getJsonArray("entities").getJsonArray(0)).isEqualTo(array("['evt-a','event']"));
    assertThat(a.getJsonArray("entities").getJsonArray(10)).isEqualTo(array("['tsk-b','task']"));
    assertThat(a.getJsonArray("entities")).hasSize(11);
    DocSnapshot s = store.read(DATES);
    assertThat(a.getJsonObject("doc")).isEqualTo(new JsonObject().put("hash", s.shortHash()).put("path", DATES).put("rev", s.rev()));
  }

  @Test
  void aGramPathListsItsEntitiesAtAPastRevisionRecordedAtOrEffectiveAt() {
    String path = "list/history.gram";
    store.create(path, "History", new JsonObject().put("records", new JsonArray().add(record("task", "t1", "One"))),
        "test-agent", "2026-01-01T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    store.patch(path, ops(add(record("task", "t2", "Two"))), "test-agent", "2026-02-01T00:00:00Z", null);
    store.patch(path, ops(add(new JsonObject().put("type", "relation").put("id", "r1")
        .put("fields", json("{'from':['t1'],'rel':['depends'],'to':['t2']}")))), "test-agent", null, null);
    DocSnapshot s = store.read(path);
    JsonObject now = ok("gram_list", "{'path':'" + path + "'}");
    assertThat(now.getJsonArray("entities")).isEqualTo(array("[['t1','task'],['t2','task'],['r1','relation']]"));
    assertThat(now.containsKey("at")).isFalse();

    JsonObject r0 = ok("gram_list", "{'path':'" + path + "','revision':0}");
    assertThat(r0.getJsonArray("entities")).isEqualTo(array("[['t1','task']]"));
    assertThat(r0.getJsonObject("at")).isEqualTo(
        new JsonObject().put("at", Times.format(s.revisions().get(0).recordedAt())).put("eff", "2026-01-01T00:00:00Z").put("rev", 0));
    assertThat(r0.getJsonObject("doc").getInteger("rev")).isEqualTo(2);

    JsonObject rec = ok("gram_list", new JsonObject().put("path", path).put("recorded_at", Times.format(s.revisions().get(1).recordedAt())));
    assertThat(rec.getJsonArray("entities")).isEqualTo(array("[['t1','task'],['t2','task']]"));
    assertThat(rec.getJsonObject("at").getInteger("rev")).isEqualTo(1);

    // Effective mid-January: only revision 0's facts had happened.
    JsonObject eff = ok("gram_list", "{'path':'" + path + "','effective_at':'2026-01-15'}");
    assertThat(eff.getJsonObject("at").getInteger("rev")).isZero();
    assertError(call("gram_list", "{'path':'" + path + "','effective_at':'2025-06-01'}"), "E_TIME_NOT_RECORDED", null);
    assertError(call("gram_list", "{'path':'" + path + "','revision':9}"), "E_ARGUMENT", null);
    assertError(call("gram_list", "{'path':'list','revision':0}"), "E_ARGUMENT", null);
  }

  // ---------------------------------------------------------------- select and the date rules

  @Test
  void selectAnswersRowsPathIdTypeTitleStatusDateSortedByTheSelectedDate() {
    JsonObject a = select("{'from':'2026-03-01','to':'2026-03-31'}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("docs", "records");
    assertThat(a.getJsonArray("docs")).hasSize(1);
    assertThat(a.getJsonArray("docs").getJsonObject(0).getString("path")).isEqualTo(DATES);
    assertThat(ids(a)).containsExactly("evt-a", "evt-d", "dec-a", "knw-a", "met-a", "tsk-a", "evt-b");
    assertThat(a.getJsonArray("records").getJsonArray(0)).isEqualTo(array("['list/dates.gram#evt-a','event','Day event',null,'2026-03-01']"));
    assertThat(a.getJsonArray("records").getJsonArray(2)).isEqualTo(array("['list/dates.gram#dec-a','decision','Dated decision','accepted','2026-03-10']"));
  }

  @Test
  void dateRuleFromIsInclusive() {
    assertThat(ids(select("{'type':'event','from':'2026-03-31T23:59:00Z'}"))).containsExactly("evt-d", "evt-b", "evt-c");
    // A record dated by a month spans the month: it meets any window that meets the month.
    assertThat(ids(select("{'type':'event','from':'2026-03-31T23:59:00.001Z'}"))).containsExactly("evt-d", "evt-c");
  }

  @Test
  void dateRuleToIsInclusive() {
    assertThat(ids(select("{'type':'event','from':'2026-03-05','to':'2026-04-01T00:00:00Z'}"))).containsExactly("evt-d", "evt-b", "evt-c");
  }

  @Test
  void dateRuleADateOnlyToIncludesTheWholeDay() {
    assertThat(ids(select("{'type':'event','from':'2026-03-31','to':'2026-03-31'}"))).containsExactly("evt-d", "evt-b");
    assertThat(ids(select("{'type':'event','to':'2026-03-31'}"))).doesNotContain("evt-c").contains("evt-b");
  }

  @Test
  void dateRuleYearMonthIsASpan() {
    assertThat(ids(select("{'type':'event','from':'2026-03','to':'2026-03'}"))).containsExactly("evt-a", "evt-d", "evt-b");
    assertThat(ids(select("{'type':'event','from':'2026-04'}"))).containsExactly("evt-c");
  }

  @Test
  void dateRuleYearIsASpan() {
    assertThat(ids(select("{'type':'event','from':'2025','to':'2025'}"))).containsExactly("evt-e");
    assertThat(ids(select("{'type':'event','from':'2026','to':'2026'}"))).containsExactly("evt-a", "evt-d", "evt-b", "evt-c");
  }

  @Test
  void dateRuleDefaultFieldIsAtForEventsObservedForMetricsDueForTasksAtOtherwise() {
    // The metric and the task also carry an at in 2027, which their default fields ignore.
    assertThat(ids(select("{'from':'2027'}"))).isEmpty();
    assertThat(ids(select("{'type':'metric','from':'2026-03-15','to':'2026-03-15'}"))).containsExactly("met-a");
    assertThat(ids(select("{'type':'task','from':'2026-03-20','to':'2026-03-20'}"))).containsExactly("tsk-a");
    assertThat(ids(select("{'type':'decision,knowledge','from':'2026-03'}"))).containsExactly("dec-a", "knw-a");
  }

  @Test
  void dateRuleDateNamesAnotherField() {
    JsonObject a = select("{'date':'start','from':'2026-03','to':'2026-03'}");
    assertThat(a.getJsonArray("records")).containsExactly(array("['list/dates.gram#tsk-b','task','Started task','completed','2026-03-03']"));
    // date also picks the field rows show and sort by: at, for the metric and the task.
    assertThat(ids(select("{'type':'metric,task','date':'at'}"))).containsExactly("met-a", "tsk-a", "tsk-b");
  }

  @Test
  void withoutADateFilterUndatedRecordsComeLastWithoutADate() {
    JsonArray rows = select("{'type':'event'}").getJsonArray("records");
    assertThat(rows).hasSize(6);
    assertThat(rows.getJsonArray(5)).isEqualTo(array("['list/dates.gram#evt-f','event','Undated event',null]"));
    assertThat(rows.getJsonArray(0).getString(0)).endsWith("#evt-e");
  }

  @Test
  void selectFiltersByTypeStatusAndTag() {
    assertThat(ids(select("{'type':'task','status':'open'}"))).containsExactly("tsk-a");
    assertThat(ids(select("{'tag':'ux'}"))).containsExactly("tsk-b");
    assertThat(ids(select("{'type':'TSK'}"))).containsExactly("tsk-a", "tsk-b");
    assertError(call("gram_list", "{'select':{'type':'spaceship'}}"), "E_ARGUMENT", null);
    assertError(call("gram_list", "{'select':{'from':'soon'}}"), "E_ARGUMENT", null);
    assertError(call("gram_list", "{'select':{'when':'2026'}}"), "E_ARGUMENT", "Unknown argument select.when");
  }

  @Test
  void selectWithoutPathSearchesEveryDocumentAndAFolderItsDocuments() {
    store.create("sel/a.gram", "A", new JsonObject().put("records", new JsonArray().add(record("event", "e1", "A event", "at", "2030-01-02"))));
    store.create("sel/b.gram", "B", new JsonObject().put("records", new JsonArray().add(record("event", "e1", "B event", "at", "2030-01-01"))));
    store.create("elsewhere/c.gram", "C", new JsonObject().put("records", new JsonArray().add(record("event", "e1", "C event", "at", "2030-01-03"))));
    JsonObject all = ok("gram_list", "{'select':{'type':'event','from':'2030'}}");
    assertThat(all.getJsonArray("records").stream().map(r -> ((JsonArray) r).getString(0)).toList())
        .containsExactly("sel/b.gram#e1", "sel/a.gram#e1", "elsewhere/c.gram#e1");
    assertThat(all.getJsonArray("docs")).hasSize(3);
    JsonObject folder = ok("gram_list", "{'path':'sel','select':{'type':'event','from':'2030'}}");
    assertThat(folder.getJsonArray("records")).hasSize(2);
    assertThat(folder.getJsonArray("docs").stream().map(d -> ((JsonObject) d).getString("path")).toList())
        .containsExactly("sel/b.gram", "sel/a.gram");
  }

  @Test
  void selectReadsAPastRevisionOfOneDocument() {
    String path = "list/select-history.gram";
    store.create(path, "H", new JsonObject().put("records", new JsonArray().add(record("task", "t1", "One", "due", "2026-01-05"))));
    store.patch(path, ops(add(record("task", "t2", "Two", "due", "2026-01-06"))));
    JsonObject then = ok("gram_list", "{'path':'" + path + "','revision':0,'select':{'type':'task'}}");
    assertThat(ids(then)).containsExactly("t1");
    assertThat(then.getJsonObject("at").getInteger("rev")).isZero();
    assertThat(ids(ok("gram_list", "{'path':'" + path + "','select':{'type':'task'}}"))).containsExactly("t1", "t2");
  }

  // ---------------------------------------------------------------- limit and cursors

  @Test
  void limitPagesAndMoreContinuesUntilEverythingIsListed() {
    for (int i = 0; i < 5; i++) {
      store.create("paged/d" + i + ".gram", "D" + i, "x");
    }
    List<Object> seen = new ArrayList<>();
    JsonObject page = ok("gram_list", "{'path':'paged','limit':2}");
    int pages = 1;
    seen.addAll(page.getJsonArray("docs").getList());
    while (page.containsKey("more")) {
      assertThat(page.getJsonArray("docs")).hasSize(2);
      page = ok("gram_list", new JsonObject().put("path", "paged").put("limit", 2).put("cursor", page.getString("more")));
      seen.addAll(page.getJsonArray("docs").getList());
      pages++;
    }
    assertThat(pages).isEqualTo(3);
    assertThat(new JsonArray(seen)).isEqualTo(ok("gram_list", "{'path':'paged'}").getJsonArray("docs"));
    assertError(call("gram_list", "{'limit':101}"), "E_ARGUMENT", null);
    assertError(call("gram_list", "{'limit':0}"), "E_ARGUMENT", null);
  }

  @Test
  void entitiesAndSelectionsPageToo() {
    JsonObject p1 = ok("gram_list", "{'path':'" + DATES + "','limit':4}");
    JsonObject p2 = ok("gram_list", new JsonObject().put("path", DATES).put("limit", 4).put("cursor", p1.getString("more")));
    JsonObject p3 = ok("gram_list", new JsonObject().put("path", DATES).put("limit", 4).put("cursor", p2.getString("more")));
    assertThat(p3.containsKey("more")).isFalse();
    assertThat(p1.getJsonArray("entities").size() + p2.getJsonArray("entities").size() + p3.getJsonArray("entities").size()).isEqualTo(11);
    assertThat(p3.getJsonArray("entities").getJsonArray(2)).isEqualTo(array("['tsk-b','task']"));

    JsonObject s1 = ok("gram_list", "{'path':'" + DATES + "','limit':3,'select':{'from':'2026-03','to':'2026-03'}}");
    JsonObject s2 = ok("gram_list", new JsonObject().put("path", DATES).put("limit", 3).put("select", json("{'from':'2026-03','to':'2026-03'}")).put("cursor", s1.getString("more")));
    assertThat(ids(s1)).containsExactly("evt-a", "evt-d", "dec-a");
    assertThat(ids(s2)).containsExactly("knw-a", "met-a", "tsk-a");
  }

  @Test
  void aMalformedCursorIsECursorInvalidListCursor() {
    String more = ok("gram_list", "{'limit':1}").getString("more");
    assertError(call("gram_list", new JsonObject().put("limit", 1).put("cursor", malformed(more))), "E_CURSOR", "Invalid list cursor");
    assertError(call("gram_list", new JsonObject().put("cursor", "%%%")), "E_CURSOR", "Invalid list cursor");
  }

  @Test
  void aFolderCursorIsStaleOnceTheDocumentsChange() {
    store.create("stale/a.gram", "A", "x");
    store.create("stale/b.gram", "B", "x");
    String more = ok("gram_list", "{'path':'stale','limit':1}").getString("more");
    store.create("stale/c.gram", "C", "x");
    assertError(call("gram_list", new JsonObject().put("path", "stale").put("limit", 1).put("cursor", more)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
    String again = ok("gram_list", "{'path':'stale','limit':1}").getString("more");
    store.patch("stale/a.gram", ops(set("doc", "d", "moved")));
    assertError(call("gram_list", new JsonObject().put("path", "stale").put("limit", 1).put("cursor", again)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
    // A cursor of one listing does not continue another.
    String other = ok("gram_list", "{'path':'stale','limit':1}").getString("more");
    assertError(call("gram_list", new JsonObject().put("path", "folder-zzz").put("cursor", other)), "E_ARGUMENT", null);
    assertError(call("gram_list", new JsonObject().put("path", DATES).put("cursor", other)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
  }

  @Test
  void aDocumentCursorUsedOnAnotherDocumentOrRevisionIsStale() {
    String more = ok("gram_list", "{'path':'" + DATES + "','limit':2}").getString("more");
    store.create("list/other.gram", "Other", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A")).add(record("task", "b", "B")).add(record("task", "c", "C"))));
    assertError(call("gram_list", new JsonObject().put("path", "list/other.gram").put("cursor", more)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
    store.patch("list/other.gram", ops(set("a", "x", "open")));
    String atOne = ok("gram_list", "{'path':'list/other.gram','limit':1}").getString("more");
    assertError(call("gram_list", new JsonObject().put("path", "list/other.gram").put("revision", 0).put("cursor", atOne)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
    String select = ok("gram_list", "{'path':'list/other.gram','limit':1,'select':{'type':'task'}}").getString("more");
    assertError(call("gram_list", new JsonObject().put("path", "list/other.gram").put("select", json("{'type':'event'}")).put("cursor", select)),
        "STALE_CURSOR", "The documents changed since this cursor; list again");
  }

  @Test
  void aDocumentCursorKeepsItsRevisionAfterNewCommits() {
    String path = "list/pinned.gram";
    store.create(path, "P", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A")).add(record("task", "b", "B"))));
    String more = ok("gram_list", "{'path':'" + path + "','limit':1}").getString("more");
    store.patch(path, ops(dev.gram.testing.StoreWrites.del("b"), add(record("task", "c", "C"))));
    JsonObject next = ok("gram_list", new JsonObject().put("path", path).put("limit", 1).put("cursor", more));
    assertThat(next.getJsonArray("entities")).isEqualTo(array("[['b','task']]"));
    assertThat(next.getJsonObject("at").getInteger("rev")).isZero();
    assertThat(next.getJsonObject("doc").getInteger("rev")).isEqualTo(1);
  }

  @Test
  void aDocumentCursorIntoAReplacedDocumentIsStaleRead() {
    String path = "list/replaced.gram";
    store.create(path, "R", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A")).add(record("task", "b", "B"))));
    String more = ok("gram_list", "{'path':'" + path + "','limit':1}").getString("more");
    store.deleteFile(path);
    store.create(path, "R2", new JsonObject().put("records", new JsonArray().add(record("task", "z", "Z")).add(record("task", "y", "Y"))));
    assertError(call("gram_list", new JsonObject().put("path", path).put("limit", 1).put("cursor", more)),
        "STALE_READ", "The document changed while it was read; read again");
    store.deleteFile(path);
    assertError(call("gram_list", new JsonObject().put("path", path).put("limit", 1).put("cursor", more)), "E_ARGUMENT", "Document not found: " + path);
  }

  @Test
  void aPastRevisionOvertakenByAReplacementIsStaleRead() throws Exception {
    String path = "list/overtaken.gram";
    store.create(path, "O", new JsonObject().put("records", new JsonArray().add(record("task", "a", "A"))));
    store.patch(path, ops(add(record("task", "b", "B"))));
    String replacement = dev.gram.format.GramWriter.write(
        dev.gram.format.GramParser.parseOrThrow(store.fileText(path)).state().withOwner(
            store.read(path).state().owner().withField("d", List.of("replaced by hand"))));
    ToolResult r;
    try (IoGate gate = IoGate.close(server.services().vault())) {
      // The file is replaced by one without this history; the store re-reads it first...
      writeText(store.vault().paths().document(path).file(), replacement);
      store.vault().refresh(store.vault().paths().document(path));
      gate.awaitQueued(1);
      // ...then the read of revision 0 starts, from the snapshot before the replacement.
      CompletableFuture<ToolResult> call = CompletableFuture.supplyAsync(() -> call("gram_list", "{'path':'" + path + "','revision':0}"));
      gate.awaitQueued(2);
      gate.releaseOne();
      r = call.get();
    }
    assertError(r, "STALE_READ", "The document changed while it was read; read again");
    assertThat(ok("gram_list", "{'path':'" + path + "','revision':0}").getJsonArray("entities")).isEqualTo(array("[['a','task'],['b','task']]"));
  }

  @Test
  void aDocumentThatCannotBeReadIsListedWithoutTitleAndReadsAsEIntegrity() {
    store.writeFile("list-bad/broken.gram", "this is not a gram file\n");
    assertThat(ok("gram_list", "{'path':'list-bad'}").getJsonArray("docs")).containsExactly(array("['list-bad/broken.gram',null,0]"));
    assertError(call("gram_list", "{'path':'list-bad/broken.gram'}"), "E_INTEGRITY", null);
    assertError(call("gram_read", "{'path':'list-bad/broken.gram'}"), "E_INTEGRITY", null);
    JsonArray row = ok("gram_brief", "{'folder':'list-bad'}").getJsonArray("docs").getJsonArray(0);
    assertThat(row).isEqualTo(array("['list-bad/broken.gram',null,0,null,null,null]"));
  }
}
