package dev.gram.web;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import java.util.function.Function;

/** A record in full: its type and id, every field with every value, its links, its blocks. */
final class RecordDetailHtml {
  private RecordDetailHtml() {}

  /** A record's fields, links and blocks (the part a disclosure fetches). */
  static void detail(StringBuilder out, Entity e, GramDocument doc, String path,
      Function<String, String> pathOfDocumentId, InlineMd inline) {
    out.append("<div class=\"record-detail\"");
    Html.attr(out, "data-id", e.id());
    out.append("><p class=\"muted\">");
    Kinds.badge(out, e.type());
    Html.text(out, e.type().typeName());
    out.append(" <code>");
    Html.text(out, e.id());
    out.append("</code></p>");
    out.append("<dl class=\"fields\">");
    for (Field f : e.fields()) {
      out.append("<dt>");
      Html.text(out, fieldName(f.key()));
      out.append("</dt>");
      for (String v : f.values()) {
        out.append("<dd>");
        Html.text(out, v);
        out.append("</dd>");
      }
    }
    out.append("</dl>");
    if (!e.links().isEmpty()) {
      out.append("<p class=\"sub\">Links</p><ul class=\"links\">");
      for (Link l : e.links()) {
        out.append("<li>");
        Html.text(out, l.predicate());
        out.append(" → ");
        String href = linkOf(l.target(), doc, path, pathOfDocumentId);
        if (href != null) {
          out.append("<a");
          Html.attr(out, "href", href);
          out.append('>');
        }
        Entity t = l.target().indexOf('/') < 0 ? doc.entity(l.target()) : null;
        Html.text(out, t != null ? t.title() + " (" + l.target() + ")" : l.target());
        out.append(href != null ? "</a>" : " <span class=\"muted\">(unresolved)</span>").append("</li>");
      }
      out.append("</ul>");
    }
    for (Block b : e.blocks()) {
      if (b.name().equals(Block.RICH)) {
        continue;
      }
      out.append("<p class=\"sub\">");
      Html.text(out, b.name());
      out.append("</p><div class=\"block-text\">");
      for (String para : b.text().split("\n\\s*\n")) {
        out.append("<p>");
        inline.append(out, para);
        out.append("</p>");
      }
      out.append("</div>");
    }
    out.append("</div>");
  }

  private static String linkOf(String target, GramDocument doc, String path, Function<String, String> pathOfDocumentId) {
    int slash = target.indexOf('/');
    if (slash < 0) {
      return doc.contains(target) ? Links.record(path, target) : null;
    }
    String other = pathOfDocumentId.apply(target.substring(0, slash));
    return other == null ? null : Links.record(other, target.substring(slash + 1));
  }

  /** The profile's short keys in words. */
  static String fieldName(String key) {
    return switch (key) {
      case "t" -> "title (t)";
      case "d" -> "description (d)";
      case "x" -> "status (x)";
      case "p" -> "priority (p)";
      default -> key;
    };
  }
}
