package dev.gram.web;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.body.BodyNode;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.RecordFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Records as the profile shows them: the item views ({@code task-row}, {@code metric}, {@code
 * image}, {@code line}, {@code unresolved}), the rows of a collection ({@code list}, {@code
 * table}, and {@code board}), and a record's fields, links and blocks on demand. The first place
 * a record appears on a page carries its anchor, which search hits and mentions lead to.
 */
final class RecordHtml {
  /** Blocks that stand for a description when a record has no {@code d}, in this order. */
  static final List<String> DESCRIPTION_BLOCKS = List.of("reason", "summary", "quote");

  /** The form every edit button of a document page submits (see {@link DocumentPage}). */
  static final String EDIT_FORM = "edits";

  private final DocumentHtml.Frame frame;
  private final InlineMd inline;
  private final Set<String> anchored = new HashSet<>();

  RecordHtml(DocumentHtml.Frame frame, InlineMd inline) {
    this.frame = frame;
    this.inline = inline;
  }

  /** A placed record in its item view; {@code r} null when the reference names nothing. */
  void item(StringBuilder out, String nodeId, BodyRefs.Ref r, String shown, String rawRef) {
    if (r == null) {
      out.append("<div class=\"rec unresolved\" data-shown=\"unresolved\" data-type=\"item\"");
      Html.attr(out, "data-node", nodeId);
      Html.attr(out, "data-ref", rawRef);
      out.append("><span class=\"emoji\" aria-hidden=\"true\">⚠️</span> Unresolved reference <code>");
      Html.text(out, rawRef);
      out.append("</code></div>");
      return;
    }
    item(out, nodeId, r, shown);
  }

  void item(StringBuilder out, String nodeId, BodyRefs.Ref r, String shown) {
    Entity e = r.entity();
    boolean local = r.doc() == frame.refs().document();
    boolean editable = local && frame.editable();
    String tag = shown.equals("image") ? "figure" : "div";
    out.append('<').append(tag).append(" class=\"rec ").append(shown);
    if (local && frame.changed().contains(e.id())) {
      out.append(" changed");
    }
    out.append('"');
    if (local && anchored.add(e.id())) {
      Html.attr(out, "id", Links.anchor(e.id()));
    }
    Html.attr(out, "data-shown", shown);
    Html.attr(out, "data-id", r.shownId());
    Html.attr(out, "data-record-type", e.type().typeName());
    if (!nodeId.isEmpty()) {
      Html.attr(out, "data-node", nodeId);
      out.append(" data-type=\"item\"");
    }
    out.append('>');
    switch (shown) {
      case "task-row" -> taskRow(out, e, editable);
      case "metric" -> metric(out, e);
      case "image" -> {
        picture(out, e.first("ref"), e.title());
        out.append("<figcaption class=\"muted\">");
        inline.append(out, e.title());
        out.append("</figcaption>");
      }
      default -> line(out, e);
    }
    if (!local) {
      String path = frame.pathOfDocumentId().apply(r.doc().id());
      out.append(" <span class=\"muted from\">from ");
      if (path != null) {
        out.append("<a");
        Html.attr(out, "href", Links.doc(path));
        out.append('>');
        Html.text(out, r.doc().title().isEmpty() ? path : r.doc().title());
        out.append("</a>");
      } else {
        Html.text(out, r.doc().title());
      }
      out.append("</span>");
    } else if (!shown.equals("image")) {
      details(out, e);
    }
    out.append("</").append(tag).append('>');
  }

  private void taskRow(StringBuilder out, Entity e, boolean editable) {
    boolean done = isDone(e);
    if (editable) {
      out.append("<button type=\"submit\" class=\"check\" role=\"checkbox\"");
      Html.attr(out, "form", EDIT_FORM);
      out.append(" name=\"tick\"");
      Html.attr(out, "value", e.id() + " " + (done ? "open" : "completed"));
      out.append(" aria-checked=\"").append(done).append('"');
      Html.attr(out, "aria-label", "Done: " + e.title());
      out.append("></button>");
    } else {
      out.append("<input type=\"checkbox\" class=\"check\" disabled");
      if (done) {
        out.append(" checked");
      }
      Html.attr(out, "aria-label", "Done: " + e.title());
      out.append('>');
    }
    out.append(" <span class=\"title\">");
    inline.append(out, e.title());
    out.append("</span>");
    chip(out, "due", "due", RecordFacts.shortDate(e.first("due")));
    chip(out, "status", "status", RecordFacts.status(e));
    chip(out, "prio", "priority", RecordFacts.priority(e));
  }

  private void metric(StringBuilder out, Entity e) {
    Kinds.badge(out, e.type());
    out.append("<span class=\"title\">");
    inline.append(out, e.title());
    out.append("</span> <span class=\"value\">");
    Html.text(out, e.first("value") == null ? "—" : e.first("value"));
    out.append("</span>");
    if (e.first("unit") != null) {
      out.append(" <span class=\"unit\">");
      Html.text(out, e.first("unit"));
      out.append("</span>");
    }
    chip(out, "observed", "observed", RecordFacts.shortDate(e.first("observed")));
  }

  private void line(StringBuilder out, Entity e) {
    Kinds.badge(out, e.type());
    out.append("<strong class=\"title\">");
    inline.append(out, lineTitle(e));
    out.append("</strong>");
    chip(out, "status", "status", RecordFacts.status(e));
    String d = description(e);
    if (d != null && !d.isBlank()) {
      out.append(" <span class=\"desc muted\">");
      inline.append(out, d);
      out.append("</span>");
    }
  }

  /** A relation has no title of its own: it reads as its edge. */
  private static String lineTitle(Entity e) {
    if (e.type() == EntityType.RELATION && e.first("t") == null) {
      return e.first("from") + " " + e.first("rel") + " " + e.first("to");
    }
    return e.title();
  }

  /** {@code d}, or the first of the description blocks. */
  static String description(Entity e) {
    String d = e.first("d");
    if (d != null && !d.isEmpty()) {
      return d;
    }
    for (String name : DESCRIPTION_BLOCKS) {
      Block b = e.block(name);
      if (b != null && !b.text().isBlank()) {
        return b.text();
      }
    }
    return null;
  }

  static boolean isDone(Entity e) {
    String x = RecordFacts.status(e);
    return x != null && RecordFacts.FINISHED.contains(x.strip().toLowerCase(Locale.ROOT));
  }

  private static void chip(StringBuilder out, String cls, String label, String value) {
    if (value == null || value.isEmpty()) {
      return;
    }
    out.append(" <span class=\"chip ").append(cls).append("\"><span class=\"sr-only\">").append(label)
        .append(": </span>");
    Html.text(out, value);
    out.append("</span>");
  }

  /** A disclosure that fetches the record's fields, links and blocks when opened. */
  private void details(StringBuilder out, Entity e) {
    String page = Links.recordPage(frame.path(), e.id());
    out.append(" <details class=\"more\"><summary>Details<span class=\"sr-only\"> of ");
    Html.text(out, e.title());
    out.append("</span></summary><div class=\"more-body\"");
    Html.attr(out, "data-src", page + "&part=rec" + (frame.editable() ? "" : "&read=1"));
    out.append("><a");
    Html.attr(out, "href", page);
    out.append(">Open the record</a></div></details>");
  }

  /**
   * A picture. Only one the page itself holds ({@code data:image/…}) is shown in place; any other
   * is a link the person may follow, so that opening a page asks nothing of another host.
   */
  void picture(StringBuilder out, String ref, String alt) {
    String src = ref == null ? "" : ref.strip();
    if (src.startsWith("data:image/")) {
      out.append("<img");
      Html.attr(out, "src", src);
      Html.attr(out, "alt", alt);
      out.append('>');
      return;
    }
    out.append("<div class=\"picture\"><span class=\"emoji\" aria-hidden=\"true\">🖼️</span> ");
    String href = Links.target(src, frame.pathOfDocumentId());
    if (href != null) {
      out.append("<a");
      Html.attr(out, "href", href);
      out.append(" rel=\"noreferrer noopener\">Picture: ");
      Html.text(out, src);
      out.append("</a>");
    } else {
      out.append("Picture: <code>");
      Html.text(out, src);
      out.append("</code>");
    }
    out.append("</div>");
  }

  /** A collection: its records as a list, a table or a board. */
  void collection(StringBuilder out, BodyNode n, List<Entity> selected, String shown) {
    String caption = caption(n.attrs(), selected.size());
    switch (shown) {
      case "list" -> {
        out.append("<ul class=\"collection list\" data-shown=\"list\"");
        DocumentHtml.node(out, n);
        Html.attr(out, "aria-label", caption);
        out.append('>');
        for (Entity e : selected) {
          out.append("<li");
          Html.attr(out, "data-id", e.id());
          out.append('>');
          listRow(out, e);
          out.append("</li>");
        }
        if (selected.isEmpty()) {
          out.append("<li class=\"muted\">No records match.</li>");
        }
        out.append("</ul>");
      }
      case "board" -> board(out, n, selected, caption);
      default -> table(out, n, selected, caption);
    }
  }

  private void listRow(StringBuilder out, Entity e) {
    Kinds.badge(out, e.type());
    out.append("<a class=\"title\"");
    Html.attr(out, "href", local(e.id()));
    out.append('>');
    inline.append(out, lineTitle(e));
    out.append("</a>");
    String x = RecordFacts.status(e);
    if (x != null) {
      out.append(" <span class=\"status muted\">");
      Html.text(out, x);
      out.append("</span>");
    }
  }

  private void table(StringBuilder out, BodyNode n, List<Entity> selected, String caption) {
    out.append("<div class=\"table-wrap\" tabindex=\"0\" role=\"region\"");
    Html.attr(out, "aria-label", caption);
    out.append("><table class=\"collection table\" data-shown=\"table\"");
    DocumentHtml.node(out, n);
    out.append("><caption>");
    Html.text(out, caption);
    out.append("</caption><thead><tr><th scope=\"col\">Type</th><th scope=\"col\">Title</th>")
        .append("<th scope=\"col\">Status</th><th scope=\"col\">Priority</th><th scope=\"col\">Date</th>")
        .append("<th scope=\"col\">Description</th></tr></thead><tbody>");
    for (Entity e : selected) {
      out.append("<tr");
      Html.attr(out, "data-id", e.id());
      out.append("><td>");
      Kinds.badge(out, e.type());
      Html.text(out, e.type().typeName());
      out.append("</td><td><a");
      Html.attr(out, "href", local(e.id()));
      out.append('>');
      inline.append(out, lineTitle(e));
      out.append("</a></td><td>");
      Html.text(out, RecordFacts.status(e));
      out.append("</td><td>");
      Html.text(out, RecordFacts.priority(e));
      out.append("</td><td>");
      Html.text(out, RecordFacts.shortDate(date(e)));
      out.append("</td><td>");
      String d = description(e);
      if (d != null) {
        inline.append(out, d);
      }
      out.append("</td></tr>");
    }
    if (selected.isEmpty()) {
      out.append("<tr><td colspan=\"6\" class=\"muted\">No records match.</td></tr>");
    }
    out.append("</tbody></table></div>");
  }

  private void board(StringBuilder out, BodyNode n, List<Entity> selected, String caption) {
    Map<String, List<Entity>> columns = new LinkedHashMap<>();
    for (Entity e : selected) {
      String x = RecordFacts.status(e);
      columns.computeIfAbsent(x == null || x.isBlank() ? "no status" : x, k -> new ArrayList<>()).add(e);
    }
    out.append("<div class=\"collection board\" data-shown=\"board\" role=\"group\"");
    DocumentHtml.node(out, n);
    Html.attr(out, "aria-label", caption);
    out.append('>');
    for (Map.Entry<String, List<Entity>> c : columns.entrySet()) {
      out.append("<section class=\"column\"");
      Html.attr(out, "aria-label", c.getKey());
      out.append("><p class=\"column-head\">");
      Html.text(out, c.getKey());
      out.append(" <span class=\"count\">(").append(c.getValue().size()).append(")</span></p><ul>");
      for (Entity e : c.getValue()) {
        out.append("<li class=\"card\"");
        Html.attr(out, "data-id", e.id());
        out.append('>');
        listRow(out, e);
        out.append("</li>");
      }
      out.append("</ul></section>");
    }
    if (selected.isEmpty()) {
      out.append("<p class=\"muted\">No records match.</p>");
    }
    out.append("</div>");
  }

  /** The date a table shows: the type's own date field, else the first of the others. */
  private static String date(Entity e) {
    for (String k : List.of("due", "at", "observed")) {
      if (e.first(k) != null) {
        return e.first(k);
      }
    }
    return null;
  }

  private static String caption(Map<String, String> attrs, int count) {
    StringBuilder s = new StringBuilder("Collection");
    for (String k : List.of("type", "status", "tag")) {
      if (attrs.get(k) != null && !attrs.get(k).isBlank()) {
        s.append(", ").append(k).append(' ').append(attrs.get(k));
      }
    }
    return s.append(" (").append(count).append(count == 1 ? " record)" : " records)").toString();
  }

  /** The address of a record of this document on this page. */
  private String local(String id) {
    return frame.self() + "#" + Links.anchor(id);
  }

  /** Where a resolved reference leads: here, or the other document's page. */
  String href(BodyRefs.Ref r) {
    if (r.doc() == frame.refs().document()) {
      return local(r.entity().id());
    }
    String path = frame.pathOfDocumentId().apply(r.doc().id());
    return path == null ? null : Links.record(path, r.entity().id());
  }


}
