package dev.gram.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * Documents for the web view's tests, written by an agent over MCP: one that uses every body node
 * type and every item view and collection view of the profile, a second one it links to, and
 * documents to edit.
 */
final class UiFixture {
  static final String PLAN = "atlas/plan.gram";
  static final String NOTES = "atlas/notes.gram";

  /** The body of {@link #PLAN}: every block type once, every item view, every collection rule. */
  static final String PLAN_BODY = String.join("\n",
      "# Atlas launch",
      "",
      "Atlas moves billing to the new cluster: see [the rollout](@dec-rollout), [a lost one](@gone-404),"
          + " the [ops notes](atlas/notes.gram), **strong**, *em*, `code` and ~~old~~ text.",
      "",
      "- Prepare",
      "  - Freeze the schema",
      "  - Back up the data",
      "- Migrate",
      "",
      "In order:",
      "",
      "1. First",
      "2. Second",
      "",
      "| Step | Owner |",
      "|---|---|",
      "| Freeze | ana |",
      "| Cut over | ben \\| ops |",
      "",
      "> Measure twice,",
      "> cut over once.",
      "",
      "> [!warning] Mind the window",
      "> Cut over only inside the maintenance window.",
      "",
      "```sql",
      "SELECT count(*) FROM invoices;",
      "```",
      "",
      "$$",
      "E = mc^2",
      "$$",
      "",
      "---",
      "",
      "![Architecture sketch](https://example.org/arch.png)",
      "",
      "## Placed records",
      "",
      "[[tsk-freeze]]",
      "",
      "[[met-latency]]",
      "",
      "[[ast-diagram]]",
      "",
      "[[dec-rollout]]",
      "",
      "[[rsk-window]]",
      "",
      "[[gone-404]]",
      "",
      "## Collections",
      "",
      "[[*]]{type=task view=list}",
      "",
      "[[*]]{type=decision view=table}",
      "",
      "[[*]]{type=task}",
      "",
      "[[*]]{type=risk,decision}",
      "",
      "[[*]]{type=goal}",
      "",
      "[[*]]{type=task view=board}");

  /** What each placed record is shown as, by the profile's rules. */
  static final Map<String, String> ITEM_VIEWS = Map.of(
      "tsk-freeze", "task-row",
      "met-latency", "metric",
      "ast-diagram", "image",
      "dec-rollout", "line",
      "rsk-window", "line",
      "gone-404", "unresolved");

  /** What each collection, in body order, is shown as. */
  static final String[] COLLECTION_VIEWS = {"list", "table", "list", "table", "table", "board"};

  private UiFixture() {}

  static JsonObject record(String type, String id, Object... fields) {
    JsonObject f = new JsonObject();
    for (int i = 0; i < fields.length; i += 2) {
      f.put((String) fields[i], new JsonArray().add(fields[i + 1]));
    }
    return new JsonObject().put("type", type).put("id", id).put("fields", f);
  }

  static void create(GramTestServer server) {
    JsonArray records = new JsonArray()
        .add(record("task", "tsk-freeze", "t", "Freeze the schema", "x", "open", "p", "high", "due", "2026-03-10"))
        .add(record("task", "tsk-backup", "t", "Back up the data", "x", "completed", "due", "2026-03-09"))
        .add(record("metric", "met-latency", "t", "p99 latency", "value", "42", "unit", "ms", "observed", "2026-03-01"))
        .add(record("asset", "ast-diagram", "t", "Architecture diagram", "ref", "diagrams/arch.png"))
        .add(record("decision", "dec-rollout", "t", "Roll out region by region", "x", "accepted", "d",
            "One region a day, smallest first."))
        .add(record("risk", "rsk-window", "t", "The window is too short", "x", "open")
            .put("blocks", new JsonArray().add(new JsonObject().put("name", "reason")
                .put("text", "Cut-over took five hours in the rehearsal."))))
        .add(record("evidence", "evd-rehearsal", "t", "Rehearsal timings", "tag", "rehearsal")
            .put("links", new JsonArray().add(new JsonObject().put("predicate", "supports").put("target", "dec-rollout"))));
    ok(server.call("gram_create", new JsonObject()
        .put("path", PLAN).putNull("base_revision").put("title", "Atlas launch plan")
        .put("content", new JsonObject().put("text", PLAN_BODY).put("records", records))));
    ok(server.call("gram_create", new JsonObject()
        .put("path", NOTES).putNull("base_revision").put("title", "Ops notes")
        .put("content", "# Ops notes\n\nBack to the [launch plan](atlas/plan.gram).\n")));
  }

  static JsonObject ok(ToolResult r) {
    assertThat(r.isError()).as("tool error: %s", r.structured()).isFalse();
    return r.structured();
  }

  /** The current {rev, hash} of a document, as an agent reads it. */
  static JsonObject head(GramTestServer server, String path) {
    return ok(server.call("gram_list", new JsonObject().put("path", path))).getJsonObject("doc");
  }

  /** An agent's patch against the current revision. */
  static JsonObject patch(GramTestServer server, String path, String requestId, JsonObject... ops) {
    JsonObject doc = head(server, path);
    JsonArray operations = new JsonArray();
    for (JsonObject op : ops) {
      operations.add(op);
    }
    return ok(server.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", requestId).put("operations", operations)));
  }

  static JsonObject set(String entity, String key, String value) {
    return new JsonObject().put("op", "set").put("entity", entity).put("key", key).put("value", value);
  }
}
