package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.del;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.ManualClock;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_brief, clause by clause. */
class GramBriefTest extends ReadingTest {
  /** Recorded times set by hand, a second apart, instead of sleeping for distinct ones. */
  final ManualClock time = new ManualClock(java.time.Instant.parse("2026-03-01T09:00:00Z"));

  @Override
  java.time.Clock clock() {
    return time;
  }

  static final String A = "brief/a.gram";
  static final String B = "brief/sub/b.gram";
  DocSnapshot a;
  DocSnapshot b;

  @BeforeAll
  void fixture() {
    JsonArray records =
        new JsonArray()
            .add(record("task", "t-open", "Open task", "x", "open", "p", "low"))
            .add(record("task", "t-none", "Task without status"))
            .add(record("task", "t-high", "Urgent task", "x", "active", "p", "high"))
            .add(record("task", "t-done", "Done task", "x", "completed"))
            .add(record("task", "t-prop", "Proposed task", "x", "proposed"))
            .add(record("risk", "r-open", "Open risk", "x", "open", "p", "medium"))
            .add(record("risk", "r-mit", "Mitigated risk", "x", "mitigated"))
            .add(record("blocker", "b-open", "Open blocker", "x", "blocked", "p", "low"))
            .add(record("decision", "d-acc", "Accepted decision", "x", "accepted"))
            .add(record("decision", "d-sup", "Superseded decision", "x", "superseded"))
            .add(record("evidence", "e-1", "Evidence is not work", "x", "open"))
            .add(record("knowledge", "k-1", "Knowledge is not work"));
    store.create(A, "Brief A", new JsonObject().put("records", records), "agent-a", "2026-01-01T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(A, ops(add(record("goal", "g-1", "Goal", "x", "open")), set("t-open", "p", "medium"), del("k-1")),
        "agent-b", "2026-03-01T00:00:00Z", null);
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(A, ops(set("doc", "d", "described")), "agent-c", "2026-02-01T00:00:00Z", null);
    time.advance(java.time.Duration.ofSeconds(1));
    store.create(B, "Brief B", new JsonObject().put("records", new JsonArray().add(record("blocker", "b-2", "Second blocker", "x", "open", "p", "high"))),
        "agent-d", null, dev.gram.edit.Creation.newDocumentId());
    store.create("elsewhere/z.gram", "Elsewhere", new JsonObject().put("records", new JsonArray().add(record("task", "z", "Elsewhere task"))));
    a = store.read(A);
    b = store.read(B);
    time.advance(java.time.Duration.ofSeconds(1)); // every revision is settled by now
  }

  static String t(DocSnapshot s, int rev) {
    return Times.format(s.revisions().get(rev).recordedAt());
  }

  @Test
  void aDocumentsBriefHasDocsCountsOpenRecentScopeAndNext() {
    JsonObject r = ok("gram_brief", "{'path':'" + A + "'}");
    assertThat(r.fieldNames()).containsExactlyInAnyOrder("counts", "docs", "next", "open", "recent", "scope");
    assertThat(r.getString("scope")).isEqualTo(A);
    assertThat(r.getJsonArray("docs")).containsExactly(
        new JsonArray().add(A).add("Brief A").add(2).add(a.shortHash()).add(t(a, 2)).add("2026-03-01T00:00:00Z"));
  }

  @Test
  void docsCarryTheCasPairThatGramPatchNeeds() {
    String path = "brief-cas/doc.gram";
    store.create(path, "CAS", "x");
    store.patch(path, ops(set("doc", "d", "one")));
    JsonArray row = ok("gram_brief", "{'path':'" + path + "'}").getJsonArray("docs").getJsonArray(0);
    // The rev and hash from the brief are accepted as base_revision and expected_hash by a write.
    assertThat(store.patchAt(path, row.getInteger(2), row.getString(3), ops(set("doc", "d", "two")), "agent-a", null, null).rev()).isEqualTo(2);
  }

  @Test
  void countsAreRecordsByType() {
    JsonObject counts = ok("gram_brief", "{'path':'" + A + "'}").getJsonObject("counts");
    assertThat(counts).isEqualTo(json("{'blocker':1,'decision':2,'evidence':1,'goal':1,'risk':2,'task':5}"));
  }

  @Test
  void openRecordsAreWorkTypesOnlyBlockersAndRisksFirstProposedAndFinishedLeftOut() {
    // Left out: t-done (completed), t-prop (proposed), r-mit (mitigated), d-acc (accepted: settled),
    // d-sup (superseded), t-none (no status), and e-1 (evidence is not work, whatever its status).
    JsonArray open = ok("gram_brief", "{'path':'" + A + "'}").getJsonArray("open");
    assertThat(open).containsExactly(
        array("['" + A + "#b-open','blocker','Open blocker','blocked','low']"),
        array("['" + A + "#r-open','risk','Open risk','open','medium']"),
        array("['" + A + "#t-high','task','Urgent task','active','high']"),
        array("['" + A + "#t-open','task','Open task','open','medium']"),
        array("['" + A + "#g-1','goal','Goal','open',null]"));
  }

  @Test
  void recentRevisionsNewestFirstWithByAndCounts() {
    JsonArray recent = ok("gram_brief", "{'path':'" + A + "'}").getJsonArray("recent");
    // Revision 1 added g-1 (and placed it: the body changed), changed t-open, removed k-1.
    assertThat(recent.getJsonArray(0).getList().subList(0, 2)).containsExactly(A, a.rev());
    JsonArray rev1 = null;
    JsonArray rev0 = null;
    for (Object o : recent) {
      JsonArray row = (JsonArray) o;
      assertThat(row).hasSize(6);
      if (row.getInteger(1) == 1) {
        rev1 = row;
      }
      if (row.getInteger(1) == 0) {
        rev0 = row;
      }
    }
    assertThat(rev1).isEqualTo(new JsonArray().add(A).add(1).add(t(a, 1)).add("2026-03-01T00:00:00Z").add("agent-b").add("+1 ~2 -1"));
    assertThat(rev0).isEqualTo(new JsonArray().add(A).add(0).add(t(a, 0)).add("2026-01-01T00:00:00Z").add("agent-a").add("+13 ~0 -0"));
  }

  @Test
  void aFolderBriefCoversItsDocumentsMostRecentFirst() {
    JsonObject r = ok("gram_brief", "{'folder':'brief'}");
    assertThat(r.getString("scope")).isEqualTo("brief");
    assertThat(r.getJsonArray("docs").stream().map(d -> ((JsonArray) d).getString(0)).toList()).containsExactly(B, A);
    assertThat(r.getJsonArray("open").getJsonArray(0).getString(0)).isEqualTo(B + "#b-2");
    assertThat(r.getJsonObject("counts").getInteger("blocker")).isEqualTo(2);
    assertThat(r.getJsonArray("recent").getJsonArray(0).getString(0)).isEqualTo(B);
    assertThat(r.getJsonArray("recent").getJsonArray(0).getString(4)).isEqualTo("agent-d");
    assertThat(r.toString()).doesNotContain("elsewhere");
    JsonObject all = ok("gram_brief", "{}");
    assertThat(all.getString("scope")).isEmpty();
    assertThat(all.toString()).contains("elsewhere/z.gram");
  }

  @Test
  void nextIsTheNewestRecordedTimeToPassToGramChanges() {
    JsonObject r = ok("gram_brief", "{'folder':'brief'}");
    String next = r.getString("next");
    assertThat(next).isEqualTo(r.getJsonArray("recent").getJsonArray(0).getString(2));
    assertThat(ok("gram_changes", "{'folder':'brief','since':'" + next + "'}").getJsonArray("changes")).isEmpty();
    store.create("brief-next/x.gram", "X", "x");
    time.advance(java.time.Duration.ofSeconds(1));
    String n2 = ok("gram_brief", "{'folder':'brief-next'}").getString("next");
    store.patch("brief-next/x.gram", ops(set("doc", "d", "new")));
    time.advance(java.time.Duration.ofSeconds(1));
    JsonArray changes = ok("gram_changes", "{'folder':'brief-next','since':'" + n2 + "'}").getJsonArray("changes");
    assertThat(changes).hasSize(1);
    assertThat(changes.getJsonObject(0).getInteger("rev")).isEqualTo(1);
  }

  @Test
  void lastEffectiveIsTheLatestEffectiveTimeAnyRevisionGave() {
    // Revision 2 was given February, revision 1 March: March is the latest.
    assertThat(ok("gram_brief", "{'path':'" + A + "'}").getJsonArray("docs").getJsonArray(0).getString(5)).isEqualTo("2026-03-01T00:00:00Z");
    assertThat(ok("gram_brief", "{'path':'" + B + "'}").getJsonArray("docs").getJsonArray(0).getValue(5)).isNull();
  }

  @Test
  void limitBoundsEachListAndOmittedCountsTheRest() {
    JsonObject r = ok("gram_brief", "{'path':'" + A + "','limit':2}");
    assertThat(r.getJsonArray("open")).hasSize(2);
    assertThat(r.getJsonArray("recent")).hasSize(2);
    assertThat(r.getJsonObject("omitted")).isEqualTo(json("{'open':3,'recent':" + (a.rev() + 1 - 2) + "}"));
    assertError(call("gram_brief", "{'limit':51}"), "E_ARGUMENT", null);
  }

  @Test
  void aLargeFolderBriefFitsTheBudget() {
    VaultGenerator.generate(server.services().vault(), new VaultGenerator.Spec(11).folder("large").projects(2).documentsPerProject(10)
        .recordsPerDocument(60).revisionsPerDocument(2));
    JsonObject r = ok("gram_brief", "{'folder':'large','limit':50}");
    assertThat(r.getJsonArray("docs")).hasSizeGreaterThan(5);
    assertThat(r.containsKey("omitted")).isTrue();
  }

  @Test
  void argumentAndPathErrors() {
    assertError(call("gram_brief", "{'folder':'brief','path':'" + A + "'}"), "E_ARGUMENT", "give folder or path, not both");
    assertError(call("gram_brief", "{'folder':'nowhere'}"), "E_ARGUMENT", "Folder not found: nowhere");
    assertError(call("gram_brief", "{'folder':'../up'}"), "E_PATH", "Path is outside the approved folders");
    assertError(call("gram_brief", "{'path':'brief/none.gram'}"), "E_ARGUMENT", "Document not found: brief/none.gram");
    assertError(call("gram_brief", "{'folder':'brief','extra':1}"), "E_ARGUMENT", "Unknown argument extra");
  }
}
