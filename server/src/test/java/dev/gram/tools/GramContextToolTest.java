package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_context, clause by clause. */
class GramContextToolTest extends ReadingTest {
  static final String DOC = "ctx/doc.gram";
  static final String OTHER = "ctx/other.gram";

  @BeforeAll
  void fixture() {
    JsonObject dec = record("decision", "dec-1", "Use a cache", "x", "accepted", "p", "high", "owner", "ana",
        "tag", "infra", "source", "src-1", "ref", "https://example.org/adr/1", "color", "#ff0000", "->supports", "goal-1");
    dec.put("blocks", new JsonArray().add(json("{'name':'reason','text':'Reads dominate.'}")));
    JsonArray records =
        new JsonArray()
            .add(dec)
            .add(record("goal", "goal-1", "Fast pages"))
            .add(record("event", "evt-1", "Cache live", "at", "2026-03-05T10:00:00Z", "->implements", "dec-1"))
            .add(record("event", "evt-2", "Cache pilot", "at", "2026-02-01", "->implements", "dec-1"))
            .add(record("decision", "dec-2", "Shard later", "x", "proposed"))
            .add(record("event", "evt-3", "Shard study", "at", "2026-01-15"))
            .add(new JsonObject().put("type", "relation").put("id", "rel-1")
                .put("fields", json("{'from':['evt-3'],'rel':['implements'],'to':['dec-2']}")))
            .add(record("metric", "met-1", "Hit rate", "value", "0.9", "unit", "%", "observed", "2026-03-07"))
            .add(record("task", "tsk-1", "Add cache", "due", "2026-04-01", "x", "open"))
            .add(record("source", "src-1", "ADR", "ref", "https://example.org/adr"));
    String body = "# Cache\n\nWe chose [the cache](@dec-1) for speed.\n\n[[tsk-1]]\n\n[[*]]{type=metric}\n\n- item with [goal](@goal-1)\n\n[[nowhere]]";
    store.create(DOC, "Context fixture", new JsonObject().put("text", body).put("records", records));
    store.create(OTHER, "Other", new JsonObject().put("records", new JsonArray().add(record("task", "o1", "Other task"))));
  }

  static JsonObject id(String path, String entity) {
    return new JsonObject().put("path", path).put("entity", entity);
  }

  JsonObject context(JsonObject... ids) {
    JsonArray a = new JsonArray();
    for (JsonObject i : ids) {
      a.add(i);
    }
    return ok("gram_context", new JsonObject().put("ids", a));
  }

  @Test
  void defaultFieldsAreTDXPOwnerTagDueAtValueUnitSourceRef() {
    JsonObject item = context(id(DOC, "dec-1")).getJsonArray("items").getJsonObject(0);
    assertThat(item.getJsonObject("fields").fieldNames()).containsExactlyInAnyOrder("t", "x", "p", "owner", "tag", "source", "ref");
    assertThat(item.getJsonObject("fields").containsKey("color")).isFalse();
    JsonObject metric = context(id(DOC, "met-1")).getJsonArray("items").getJsonObject(0);
    assertThat(metric.getJsonObject("fields").fieldNames()).containsExactlyInAnyOrder("t", "value", "unit");
    JsonObject task = context(id(DOC, "tsk-1")).getJsonArray("items").getJsonObject(0);
    assertThat(task.getJsonObject("fields").fieldNames()).containsExactlyInAnyOrder("t", "x", "due");
    JsonObject event = context(id(DOC, "evt-1")).getJsonArray("items").getJsonObject(0);
    assertThat(event.getJsonObject("fields").fieldNames()).containsExactlyInAnyOrder("t", "at");
  }

  @Test
  void fieldsPicksOtherKeys() {
    JsonObject a = ok("gram_context", new JsonObject().put("ids", new JsonArray().add(id(DOC, "dec-1")).add(id(DOC, "met-1")))
        .put("fields", new JsonArray().add("color").add("observed")));
    assertThat(a.getJsonArray("items").getJsonObject(0).getJsonObject("fields")).isEqualTo(json("{'color':['#ff0000']}"));
    assertThat(a.getJsonArray("items").getJsonObject(1).getJsonObject("fields")).isEqualTo(json("{'observed':['2026-03-07']}"));
  }

  @Test
  void linksAreIncludedWhenThereAreAny() {
    JsonArray items = context(id(DOC, "dec-1"), id(DOC, "goal-1")).getJsonArray("items");
    assertThat(items.getJsonObject(0).getJsonArray("links")).isEqualTo(array("[['supports','goal-1']]"));
    assertThat(items.getJsonObject(1).containsKey("links")).isFalse();
  }

  @Test
  void boundedTextReadsMentionsAndItemsAsTheRecordsTheyNameAndRecordBlocksAsNameText() {
    JsonArray items = context(id(DOC, "doc"), id(DOC, "dec-1")).getJsonArray("items");
    String body = items.getJsonObject(0).getString("text");
    assertThat(body).isEqualTo(
        "Cache\nWe chose the cache (decision dec-1: Use a cache (accepted)) for speed.\n"
            + "task tsk-1: Add cache (open)\n- metric met-1: Hit rate\n- item with goal (goal goal-1: Fast pages)\nnowhere (unresolved)");
    assertThat(items.getJsonObject(1).getString("text")).isEqualTo("reason: Reads dominate.");
    assertThat(context(id(DOC, "goal-1")).getJsonArray("items").getJsonObject(0).containsKey("text")).isFalse();
  }

  @Test
  void textIsBoundedWithAnEllipsis() {
    String path = "ctx/long.gram";
    store.create(path, "Long", "# Long\n\n" + "word ".repeat(2000));
    String text = context(id(path, "doc")).getJsonArray("items").getJsonObject(0).getString("text");
    assertThat(text).hasSize(dev.gram.tools.support.Limits.CONTEXT_TEXT_CHARS).endsWith("…");
  }

  @Test
  void aDecisionAddsImplementedTheDateOfItsEarliestImplementingEvent() {
    JsonArray items = context(id(DOC, "dec-1"), id(DOC, "dec-2"), id(DOC, "goal-1")).getJsonArray("items");
    assertThat(items.getJsonObject(0).getString("implemented")).isEqualTo("2026-02-01");
    // A REL edge event-implements-decision counts as well.
    assertThat(items.getJsonObject(1).getString("implemented")).isEqualTo("2026-01-15");
    assertThat(items.getJsonObject(2).containsKey("implemented")).isFalse();
  }

  @Test
  void manyDocumentsInOneCallWithTheirCasPairsAndPaths() {
    JsonObject a = context(id(DOC, "goal-1"), id(OTHER, "o1"));
    assertThat(a.getJsonArray("docs").stream().map(d -> ((JsonObject) d).getString("path")).toList()).containsExactly(DOC, OTHER);
    assertThat(a.getJsonArray("docs").getJsonObject(1)).isEqualTo(
        new JsonObject().put("hash", store.read(OTHER).shortHash()).put("path", OTHER).put("rev", store.read(OTHER).rev()));
    assertThat(a.getJsonArray("items").getJsonObject(1).getString("path")).isEqualTo(OTHER);
    // With one document, items carry no path.
    assertThat(context(id(DOC, "goal-1")).getJsonArray("items").getJsonObject(0).containsKey("path")).isFalse();
  }

  @Test
  void eachIdMayReadAPastRevisionRecordedAtOrEffectiveAt() {
    String path = "ctx/history.gram";
    store.create(path, "H", new JsonObject().put("records", new JsonArray().add(record("task", "t", "Old title"))),
        "test-agent", "2026-01-01T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    store.patch(path, ops(set("t", "t", "New title")), "test-agent", "2026-02-01T00:00:00Z", null);
    JsonArray items = context(
        id(path, "t"), id(path, "t").put("revision", 0), id(path, "t").put("effective_at", "2026-01-15"),
        id(path, "t").put("recorded_at", "1990-01-01T00:00:00Z")).getJsonArray("items");
    assertThat(items.getJsonObject(0).getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("New title");
    assertThat(items.getJsonObject(0).containsKey("at")).isFalse();
    assertThat(items.getJsonObject(1).getJsonObject("fields").getJsonArray("t").getString(0)).isEqualTo("Old title");
    assertThat(items.getJsonObject(1).getJsonObject("at").getInteger("rev")).isZero();
    assertThat(items.getJsonObject(2).getJsonObject("at").getInteger("rev")).isZero();
    assertThat(items.getJsonObject(3).getJsonObject("error").getString("code")).isEqualTo("E_TIME_NOT_RECORDED");
  }

  @Test
  void anUnreadableIdIsAnItemWithAnErrorNotAFailedCall() {
    JsonObject a = context(id(DOC, "goal-1"), id(DOC, "nope"), id("ctx/missing.gram", "x"));
    JsonArray items = a.getJsonArray("items");
    assertThat(items.getJsonObject(1).getJsonObject("error").getString("code")).isEqualTo("E_ARGUMENT");
    assertThat(items.getJsonObject(1).getString("id")).isEqualTo("nope");
    assertThat(items.getJsonObject(2).getJsonObject("error").getString("message")).isEqualTo("Document not found: ctx/missing.gram");
    assertThat(items.getJsonObject(2).getString("path")).isEqualTo("ctx/missing.gram");
    assertError(call("gram_context", "{'ids':[{'path':'../x.gram','entity':'a'}]}"), "E_PATH", "Path is outside the approved folders");
  }

  @Test
  void whenTheBudgetIsReachedMoreContinuesWithTheRemainingIds() {
    String path = "ctx/budget.gram";
    JsonArray recs = new JsonArray();
    JsonArray ids = new JsonArray();
    for (int i = 0; i < 40; i++) {
      recs.add(record("knowledge", "k" + i, "Knowledge " + i, "d", ("Description " + i + " ").repeat(40)));
      ids.add(id(path, "k" + i));
    }
    store.create(path, "Budget", new JsonObject().put("records", recs));
    List<String> seen = new ArrayList<>();
    JsonObject page = ok("gram_context", new JsonObject().put("ids", ids));
    int pages = 1;
    page.getJsonArray("items").forEach(o -> seen.add(((JsonObject) o).getString("id")));
    while (page.containsKey("more")) {
      page = ok("gram_context", new JsonObject().put("ids", ids).put("cursor", page.getString("more")));
      page.getJsonArray("items").forEach(o -> seen.add(((JsonObject) o).getString("id")));
      assertThat(page.getJsonArray("docs")).hasSize(1);
      pages++;
    }
    assertThat(pages).isGreaterThan(1);
    assertThat(seen).hasSize(40).startsWith("k0", "k1").endsWith("k39");
    String more = ok("gram_context", new JsonObject().put("ids", ids)).getString("more");
    assertError(call("gram_context", new JsonObject().put("ids", ids).put("cursor", malformed(more))), "E_CURSOR", "Invalid context cursor");
    JsonArray fewer = ids.copy();
    fewer.remove(0);
    assertError(call("gram_context", new JsonObject().put("ids", fewer).put("cursor", more)), "STALE_CURSOR",
        "The cursor belongs to another request; ask again without cursor");
  }

  @Test
  void atMostOneHundredIdsFromTwentyFiveDocuments() {
    JsonArray many = new JsonArray();
    for (int i = 0; i < 101; i++) {
      many.add(id(DOC, "goal-1"));
    }
    assertError(call("gram_context", new JsonObject().put("ids", many)), "E_ARGUMENT", "ids: at most 100 per call, not 101");
    JsonArray docs = new JsonArray();
    for (int i = 0; i < 26; i++) {
      docs.add(id("ctx/many-" + i + ".gram", "x"));
    }
    ToolResult r = call("gram_context", new JsonObject().put("ids", docs));
    assertError(r, "E_TOO_MANY_DOCUMENTS", "gram_context reads at most 25 documents in one call; this request names 26; split the ids over several calls");
    assertThat(r.details().getInteger("limit")).isEqualTo(25);
  }
}
