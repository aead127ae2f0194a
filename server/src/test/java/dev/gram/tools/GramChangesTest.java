package dev.gram.tools;

import dev.gram.testing.ManualClock;
import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.del;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_changes, clause by clause. */
class GramChangesTest extends ReadingTest {
  /** Recorded times set by hand, a second apart, instead of sleeping for distinct ones. */
  final ManualClock time = new ManualClock(java.time.Instant.parse("2026-03-01T09:00:00Z"));

  @Override
  java.time.Clock clock() {
    return time;
  }

  static final String A = "chg/a.gram";
  static final String B = "chg/b.gram";
  DocSnapshot a;
  DocSnapshot b;

  @BeforeAll
  void fixture() {
    store.create(A, "Doc A", new JsonObject().put("text", "# A").put("records", new JsonArray().add(record("task", "t1", "First task"))),
        "agent-a", null, dev.gram.edit.Creation.newDocumentId());
    time.advance(java.time.Duration.ofSeconds(1));
    store.create(B, "Doc B", "# B", "agent-b", null, dev.gram.edit.Creation.newDocumentId());
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(A, ops(add(record("task", "t2", "Second task")), set("t1", "x", "active")), "agent-b", "2026-01-02T00:00:00Z", null);
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(A, ops(del("t2"), set("doc", "t", "Doc A renamed")), "agent-c", null, null);
    time.advance(java.time.Duration.ofSeconds(1));
    store.patch(B, ops(set("doc", "d", "described")), "agent-a", null, null);
    store.create("elsewhere/c.gram", "Doc C", "# C");
    a = store.read(A);
    b = store.read(B);
    time.advance(java.time.Duration.ofSeconds(1)); // every revision is settled by now
  }

  static String time(DocSnapshot s, int rev) {
    return Times.format(s.revisions().get(rev).recordedAt());
  }

  JsonObject changes(String args) {
    return ok("gram_changes", json(args));
  }

  static List<String> revs(JsonObject answer) {
    List<String> out = new ArrayList<>();
    for (Object o : answer.getJsonArray("changes")) {
      JsonObject c = (JsonObject) o;
      out.add(c.getString("path") + "@" + c.getInteger("rev"));
    }
    return out;
  }

  @Test
  void afterSinceRevisionInOneDocumentEachRevisionWithAddSetDel() {
    JsonObject r = changes("{'path':'" + A + "','since_revision':0}");
    assertThat(r.fieldNames()).containsExactlyInAnyOrder("changes", "docs", "next");
    JsonArray c = r.getJsonArray("changes");
    assertThat(c).hasSize(2);
    assertThat(c.getJsonObject(0)).isEqualTo(new JsonObject()
        .put("path", A).put("rev", 1).put("at", time(a, 1)).put("by", "agent-b").put("eff", "2026-01-02T00:00:00Z")
        .put("add", array("[['t2','task','Second task']]"))
        .put("set", array("[['doc','Doc A',['body']],['t1','First task',['x']]]")));
    // A removed record shows the title it had; the owner is doc, with its title at that revision.
    assertThat(c.getJsonObject(1)).isEqualTo(new JsonObject()
        .put("path", A).put("rev", 2).put("at", time(a, 2)).put("by", "agent-c")
        // Removing t2 also removed its placement from the body.
        .put("set", array("[['doc','Doc A renamed',['t','body']]]"))
        .put("del", array("[['t2','Second task']]")));
    assertThat(r.getJsonArray("docs")).containsExactly(new JsonObject().put("hash", a.shortHash()).put("path", A).put("rev", 2));
    assertThat(r.getString("next")).isEqualTo(time(a, 2));
  }

  @Test
  void revisionZeroAddsTheOwnerAsDoc() {
    JsonObject first = changes("{'path':'" + A + "','limit':1}").getJsonArray("changes").getJsonObject(0);
    assertThat(first.getInteger("rev")).isZero();
    assertThat(first.getJsonArray("add")).isEqualTo(array("[['doc','document','Doc A'],['t1','task','First task']]"));
  }

  @Test
  void sinceIsExclusiveAndCoversAFolderOldestFirst() {
    JsonObject r = changes("{'folder':'chg','since':'" + time(a, 0) + "'}");
    assertThat(revs(r)).containsExactly(B + "@0", A + "@1", A + "@2", B + "@1");
    assertThat(r.getJsonArray("docs").stream().map(d -> ((JsonObject) d).getString("path")).toList()).containsExactly(B, A);
    assertThat(revs(changes("{'folder':'chg','since':'" + time(b, 1) + "'}"))).isEmpty();
  }

  @Test
  void withoutFolderOrPathTheWholeVaultAndWithoutSinceEverything() {
    JsonObject r = changes("{'limit':100}");
    assertThat(revs(r)).contains(A + "@0", A + "@2", B + "@1", "elsewhere/c.gram@0");
    List<String> times = r.getJsonArray("changes").stream().map(c -> ((JsonObject) c).getString("at")).toList();
    assertThat(times).isSorted();
    assertThat(revs(changes("{'path':'" + B + "'}"))).containsExactly(B + "@0", B + "@1");
  }

  @Test
  void aDateAloneAsSinceMeansFromTheStartOfThatDay() {
    String today = time(a, 0).substring(0, 10);
    assertThat(revs(changes("{'folder':'chg','since':'" + today + "'}"))).hasSize(5);
  }

  @Test
  void nextIsTheTimeToPassAsSinceNextTime() {
    JsonObject r = changes("{'folder':'chg'}");
    assertThat(r.getString("next")).isEqualTo(time(b, 1));
    store.create("chg-next/a.gram", "A", "x");
    time.advance(java.time.Duration.ofSeconds(1));
    String next = changes("{'folder':'chg-next'}").getString("next");
    JsonObject nothing = changes("{'folder':'chg-next','since':'" + next + "'}");
    assertThat(nothing.getJsonArray("changes")).isEmpty();
    assertThat(nothing.getString("next")).isEqualTo(next);
    store.patch("chg-next/a.gram", ops(set("doc", "d", "again")));
    time.advance(java.time.Duration.ofSeconds(1));
    JsonObject later = changes("{'folder':'chg-next','since':'" + next + "'}");
    assertThat(revs(later)).containsExactly("chg-next/a.gram@1");
    store.create("chg-next/late.gram", "Late", "x");
    time.advance(java.time.Duration.ofSeconds(1));
    assertThat(revs(changes("{'folder':'chg-next','since':'" + later.getString("next") + "'}"))).containsExactly("chg-next/late.gram@0");
  }

  @Test
  void moreContinuesAPageAndNextIsTheLastRevisionListed() {
    JsonObject p1 = changes("{'folder':'chg','limit':2}");
    assertThat(revs(p1)).hasSize(2);
    assertThat(p1.getString("next")).isEqualTo(p1.getJsonArray("changes").getJsonObject(1).getString("at"));
    List<String> all = new ArrayList<>(revs(p1));
    JsonObject page = p1;
    while (page.containsKey("more")) {
      page = ok("gram_changes", json("{'folder':'chg','limit':2}").put("cursor", page.getString("more")));
      all.addAll(revs(page));
    }
    assertThat(all).isEqualTo(revs(changes("{'folder':'chg','limit':100}")));
  }

  /** Each refused cursor, checked on its own: one wrong answer does not hide the others. */
  @Test
  void malformedAndStaleCursorsAreRefusedWithTheirOwnCodes() {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    String more = changes("{'folder':'chg','limit':1}").getString("more");
    assertError(softly, call("gram_changes", json("{'folder':'chg','limit':1}").put("cursor", malformed(more))), "E_CURSOR", "Invalid changes cursor");
    assertError(softly, call("gram_changes", json("{'folder':'chg','since':'2020-01-01T00:00:00Z'}").put("cursor", more)),
        "STALE_CURSOR", "The documents changed since this cursor; ask again without cursor");
    // The last revision the cursor listed no longer exists as it was: the document was replaced.
    String path = "chg2/x.gram";
    store.create(path, "X", "x");
    store.create("chg2/y.gram", "Y", "y");
    String cursor = changes("{'folder':'chg2','limit':1}").getString("more");
    String firstPath = changes("{'folder':'chg2','limit':1}").getJsonArray("changes").getJsonObject(0).getString("path");
    store.deleteFile(firstPath);
    store.create(firstPath, "Replaced", "other text");
    assertError(softly, call("gram_changes", json("{'folder':'chg2','limit':1}").put("cursor", cursor)),
        "STALE_CURSOR", "The documents changed since this cursor; ask again without cursor");
    softly.assertAll();
  }

  /** Each refused argument combination, checked on its own. */
  @Test
  void conflictingOrMalformedArgumentsAreRefusedSayingWhy() {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    assertError(softly, call("gram_changes", "{'folder':'chg','since_revision':0}"), "E_ARGUMENT", "since_revision counts revisions of one document: give path");
    assertError(softly, call("gram_changes", "{'path':'" + A + "','since_revision':0,'since':'2026'}"), "E_ARGUMENT", "give since or since_revision, not both");
    assertError(softly, call("gram_changes", "{'path':'" + A + "','folder':'chg'}"), "E_ARGUMENT", "give folder or path, not both");
    assertError(softly, call("gram_changes", "{'since':'last tuesday'}"), "E_ARGUMENT", null);
    assertError(softly, call("gram_changes", "{'limit':101}"), "E_ARGUMENT", null);
    softly.assertAll();
  }

  @Test
  void aRevisionTooLargeForOneAnswerListsWhatFitsAndContinuesInMore() {
    String path = "chg3/bulk.gram";
    JsonArray recs = new JsonArray();
    for (int i = 0; i < 800; i++) {
      recs.add(record("knowledge", "k-" + i, "Knowledge record number " + i));
    }
    store.create(path, "Bulk", new JsonObject().put("records", recs));
    JsonObject r = changes("{'path':'" + path + "'}");
    JsonObject c = r.getJsonArray("changes").getJsonObject(0);
    assertThat(c.getInteger("rows_left")).isPositive();
    assertThat(c.getJsonArray("add").size() + c.getInteger("rows_left")).isEqualTo(801);
    assertThat(r.getString("more")).isNotNull();
  }
}
