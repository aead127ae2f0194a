package dev.gram.web;

import dev.gram.format.Times;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One revision of {@code gram_changes} as a row a person reads: when, which document and
 * revision, who, and what it added, changed (which keys) and removed, by title.
 */
final class ChangeRows {
  /** Entities named per kind before the row says how many more there are. */
  static final int NAMED = 6;

  private ChangeRows() {}

  static void activityRow(StringBuilder out, JsonObject c) {
    String path = c.getString("path", "");
    int rev = c.getInteger("rev", 0);
    out.append("<li class=\"change\"");
    Html.attr(out, "data-path", path);
    out.append(" data-rev=\"").append(rev).append("\">");
    String at = c.getString("at");
    BrowsePage.time(out, at == null ? null : Times.parseInstant(at));
    out.append(" <a");
    Html.attr(out, "href", Links.doc(path));
    out.append('>');
    Html.text(out, path);
    out.append("</a> <a");
    Html.attr(out, "href", Links.docAt(path, rev));
    out.append(" class=\"rev\">rev ").append(rev).append("</a> by <span class=\"by\">");
    Html.text(out, c.getString("by"));
    out.append("</span>");
    what(out, c);
    out.append("</li>");
  }

  /** The added, changed and removed entities of one revision. */
  static void what(StringBuilder out, JsonObject c) {
    out.append("<ul class=\"what\">");
    kind(out, c.getJsonArray("add"), "added", "+");
    kind(out, c.getJsonArray("set"), "changed", "~");
    kind(out, c.getJsonArray("del"), "removed", "−");
    Integer left = c.getInteger("rows_left");
    if (left != null && left > 0) {
      out.append("<li class=\"muted\">and ").append(left).append(" more</li>");
    }
    out.append("</ul>");
  }

  private static void kind(StringBuilder out, JsonArray rows, String label, String mark) {
    if (rows == null || rows.isEmpty()) {
      return;
    }
    out.append("<li class=\"").append(label).append("\"><span aria-hidden=\"true\">").append(mark)
        .append("</span> <span class=\"sr-only\">").append(label).append(": </span>");
    int n = Math.min(NAMED, rows.size());
    for (int i = 0; i < n; i++) {
      JsonArray row = rows.getJsonArray(i);
      if (i > 0) {
        out.append(", ");
      }
      // add: [id, type, title]; set: [id, title, keys]; del: [id, title]
      boolean add = label.equals("added");
      String title = add ? row.getString(2) : row.getString(1);
      out.append("<span class=\"ent\">");
      Html.text(out, title == null || title.isEmpty() ? row.getString(0) : title);
      out.append("</span>");
      if (label.equals("changed") && row.size() > 2 && row.getValue(2) instanceof JsonArray keys) {
        out.append(" <span class=\"keys muted\">(");
        for (int k = 0; k < keys.size(); k++) {
          out.append(k == 0 ? "" : ", ");
          Html.text(out, String.valueOf(keys.getValue(k)));
        }
        out.append(")</span>");
      }
    }
    if (rows.size() > n) {
      out.append(" <span class=\"muted\">and ").append(rows.size() - n).append(" more</span>");
    }
    out.append("</li>");
  }
}
