package dev.gram.tools;

import dev.gram.base.ResponseBudget;
import dev.gram.index.IndexStatus;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * {@code gram_capabilities}: the tools, whether semantic search works at this moment (and why not),
 * and the index's state, read when the call arrives.
 */
public final class GramCapabilities extends ReadTool {
  private final List<String> toolNames;

  public GramCapabilities(GramContext ctx, List<String> toolNames) {
    super(ctx, "gram_capabilities");
    List<String> names = new java.util.ArrayList<>(toolNames);
    names.sort(java.util.Comparator.comparingInt(GramCapabilities::listed));
    this.toolNames = List.copyOf(names);
  }

  @Override
  public String description() {
    return "What this server can do right now: its tools, whether semantic search works at this moment (status "
        + "available, or unavailable with the reason), the answer budget in bytes, and the search index's state "
        + "(indexed, pending and failed documents, embedded chunks).";
  }

  /**
   * The order of the contract's gram_capabilities answer: orientation first, then reading from
   * broad to narrow, history, and the two writes. (tools/list has the contract's own order.)
   */
  static final List<String> ORDER =
      List.of(
          "gram_profile", "gram_capabilities", "gram_projects", "gram_brief", "gram_read",
          "gram_changes", "gram_recall", "gram_list", "gram_get", "gram_context", "gram_relations",
          "gram_range", "gram_state", "gram_create", "gram_patch");

  private static int listed(String tool) {
    int i = ORDER.indexOf(tool);
    return i < 0 ? ORDER.size() : i;
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    IndexStatus.Stats stats = ctx.index().stats();
    IndexStatus.Semantic semantic = ctx.index().semantic();
    JsonObject sem = new JsonObject();
    if (semantic.reason() != null && !semantic.available()) {
      sem.put("reason", semantic.reason());
    }
    sem.put("status", semantic.status());
    JsonObject out = new JsonObject().put("budget_bytes", ResponseBudget.BYTES);
    if (ctx.settings().cluster() != null) {
      out.put("cluster", ctx.settings().cluster().get());
    }
    return Future.succeededFuture(
        out
            .put(
                "index",
                new JsonObject()
                    .put("embeddedChunks", stats.embeddedChunks())
                    .put("failedFiles", stats.failedFiles())
                    .put("indexedFiles", stats.indexedFiles())
                    .put("pendingFiles", stats.pendingFiles()))
            .put("semantic", sem)
            .put("tools", new JsonArray(toolNames)));
  }
}
