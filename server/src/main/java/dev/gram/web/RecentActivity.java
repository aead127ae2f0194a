package dev.gram.web;

import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The newest revisions of a folder (or the vault) as {@code gram_changes} tells them: who wrote
 * what, newest first. The snapshots say from when to ask, so the tool lists just the newest.
 */
final class RecentActivity {
  static final int ROWS = 20;

  private final ToolCalls tools;

  RecentActivity(ToolCalls tools) {
    this.tools = tools;
  }

  /**
   * Just before the {@link #ROWS}-th newest revision in scope, so that {@code
   * gram_changes} since then lists the newest ones; {@code null} when the scope has fewer.
   */
  private static Instant since(List<DocSnapshot> scope) {
    PriorityQueue<Instant> newest = new PriorityQueue<>();
    for (DocSnapshot s : scope) {
      if (s.history() == null) {
        continue;
      }
      List<Revision> revs = s.revisions();
      for (int i = revs.size() - 1; i >= 0; i--) {
        Instant t = revs.get(i).recordedAt();
        if (newest.size() == ROWS && !t.isAfter(newest.peek())) {
          break;
        }
        newest.add(t);
        if (newest.size() > ROWS) {
          newest.poll();
        }
      }
    }
    return newest.size() < ROWS ? null : newest.peek().minusMillis(1);
  }

  Future<String> render(String folder, List<DocSnapshot> scope, Visitor visitor) {
    Instant since = since(scope);
    JsonObject args = new JsonObject()
        .put("since", since == null ? "1970-01-01T00:00:00.000Z" : Times.format(since))
        .put("limit", 100);
    if (!folder.isEmpty()) {
      args.put("folder", folder);
    }
    return tools.call("gram_changes", args, visitor).map(answer -> {
      StringBuilder out = new StringBuilder(8192);
      out.append("<section id=\"activity\" aria-labelledby=\"activity-h\"");
      Html.attr(out, "data-live-src", Links.home() + "?part=activity" + (folder.isEmpty() ? "" : "&folder=" + Links.q(folder)));
      out.append("><h2 id=\"activity-h\">Recent activity</h2>");
      JsonArray changes = answer.getJsonArray("changes", new JsonArray());
      List<JsonObject> rows = new ArrayList<>();
      for (int i = 0; i < changes.size(); i++) {
        JsonObject c = changes.getJsonObject(i);
        if (visitor.mayRead(c.getString("path", ""))) {
          rows.add(c);
        }
      }
      if (rows.isEmpty()) {
        out.append("<p class=\"muted\">Nothing written yet.</p></section>");
        return out.toString();
      }
      out.append("<ol class=\"activity\" reversed>");
      int from = Math.max(0, rows.size() - ROWS);
      for (int i = rows.size() - 1; i >= from; i--) {
        ChangeRows.activityRow(out, rows.get(i));
      }
      out.append("</ol></section>");
      return out.toString();
    });
  }
}
