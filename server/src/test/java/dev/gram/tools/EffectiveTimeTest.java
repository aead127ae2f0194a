package dev.gram.tools;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.Creation;
import dev.gram.format.Times;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Effective time field by field (docs/gram-format.md §11), in every tool that takes effective_at,
 * on the rule's own example: rev 1 (effective 2026-01-10) adds x active, rev 2 (effective
 * 2026-06-01) completes it, rev 3 (no effective time) sets its priority, rev 4 (effective
 * 2026-03-01) adds t2.
 */
class EffectiveTimeTest extends ReadingTest {
  static final String DOC = "eff/x.gram";
  static final String MARCH = "2026-03-01";
  String rev2At;

  @BeforeAll
  void fixture() {
    store.create(DOC, "X", "# X", "agent", "2026-01-01", Creation.newDocumentId());
    store.patch(DOC, ops(add(record("task", "x", "Ship it")), set("x", "s", "active")), "agent", "2026-01-10", null);
    store.patch(DOC, ops(set("x", "s", "completed")), "agent", "2026-06-01", null);
    store.patch(DOC, ops(set("x", "p", "high")), "agent", null, null);
    store.patch(DOC, ops(add(record("task", "t2", "Second"))), "agent", MARCH, null);
    rev2At = Times.format(store.read(DOC).revisions().get(2).recordedAt());
  }

  @Test
  void getShowsOnlyWhatWasEffectiveThen() {
    JsonObject x = ok("gram_get", "{'path':'" + DOC + "','entity':'x','effective_at':'" + MARCH + "'}");
    JsonObject fields = x.getJsonObject("entity").getJsonObject("fields");
    assertThat(fields.getValue("s")).isIn("active", new JsonArray().add("active"));
    assertThat(fields.containsKey("p")).as("rev 3 is effective when it was recorded, after March").isFalse();
    assertThat(x.getJsonObject("at").getString("eff")).startsWith(MARCH);
    JsonObject t2 = ok("gram_get", "{'path':'" + DOC + "','entity':'t2','effective_at':'" + MARCH + "'}");
    assertThat(t2.getJsonObject("entity").getString("id")).isEqualTo("t2");
  }

  @Test
  void listAndStateAgree() {
    JsonObject list = ok("gram_list", "{'path':'" + DOC + "','effective_at':'" + MARCH + "'}");
    assertThat(ids(list.getJsonArray("entities"))).containsExactlyInAnyOrder("x", "t2");
    JsonObject state = ok("gram_state", "{'path':'" + DOC + "','selector':{'effective_at':'" + MARCH + "'}}");
    assertThat(ids(state.getJsonArray("entities"))).containsExactlyInAnyOrder("x", "t2");
    JsonObject x = ok("gram_state", "{'path':'" + DOC + "','entity':'x','selector':{'effective_at':'2026-07-01'}}");
    assertThat(x.encode()).contains("completed").doesNotContain("high");
  }

  @Test
  void recordedAtWithEffectiveAtReadsWhatWasKnownThen() {
    JsonObject july = ok("gram_list", json("{'path':'" + DOC + "','effective_at':'2026-07-01'}").put("recorded_at", rev2At));
    assertThat(ids(july.getJsonArray("entities"))).containsExactly("x");
    assertThat(july.getJsonObject("at").getInteger("rev")).as("the last revision, as recorded by then, effective then").isEqualTo(2);
  }

  @Test
  void contextAndReadTakeTheSameRule() {
    JsonObject c = ok("gram_context", json("{'fields':['s','p']}").put("ids", new JsonArray().add(json("{'path':'" + DOC + "','entity':'x','effective_at':'" + MARCH + "'}"))));
    assertThat(c.encode()).contains("active").doesNotContain("completed").doesNotContain("high");
    JsonObject r = ok("gram_read", "{'path':'" + DOC + "','effective_at':'" + MARCH + "'}");
    assertThat(r.getJsonObject("at").getString("eff")).startsWith(MARCH);
  }

  @Test
  void beforeAnythingWasEffectiveIsTimeNotRecorded() {
    assertError(call("gram_get", "{'path':'" + DOC + "','entity':'doc','effective_at':'2025-12-31'}"), "E_TIME_NOT_RECORDED", null);
  }

  private static List<String> ids(JsonArray rows) {
    List<String> out = new ArrayList<>();
    for (Object o : rows) {
      out.add(((JsonArray) o).getString(0));
    }
    return out;
  }
}
