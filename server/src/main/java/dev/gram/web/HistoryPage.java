package dev.gram.web;

import dev.gram.format.Entity;
import dev.gram.format.Revision;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import java.util.List;

/**
 * A document's history: a timeline of its revisions (number, recorded time, effective time, who,
 * on which request, {@code +added ~changed -removed}), newest first and a page at a time, each
 * with a link to the document as it was then; and the difference between any two revisions,
 * entity by entity ({@link EntityDiff}).
 */
final class HistoryPage {
  static final int PAGE_SIZE = 50;

  private final GramContext gram;

  HistoryPage(GramContext gram) {
    this.gram = gram;
  }

  Future<String> timeline(String path, int page, boolean part) {
    return Snapshots.read(gram, path).map(s -> {
      List<Revision> revs = s.revisions();
      int pages = Math.max(1, (revs.size() + PAGE_SIZE - 1) / PAGE_SIZE);
      int p = Math.max(1, Math.min(page, pages));
      StringBuilder out = new StringBuilder(16_384);
      if (!part) {
        out.append("<nav aria-label=\"Breadcrumb\" class=\"crumbs\"><ol><li><a");
        Html.attr(out, "href", Links.doc(path));
        out.append('>');
        Html.text(out, BrowsePage.title(s).isEmpty() ? path : BrowsePage.title(s));
        out.append("</a></li><li><span aria-current=\"page\">History</span></li></ol></nav><h1>History of ");
        Html.text(out, path);
        out.append("</h1>");
        diffForm(out, path, Math.max(0, s.rev() - 1), s.rev(), s.rev());
      }
      out.append("<section id=\"timeline\" aria-labelledby=\"timeline-h\"");
      Html.attr(out, "data-live-src", Links.history(path) + "?part=timeline" + (p > 1 ? "&page=" + p : ""));
      out.append("><h2 id=\"timeline-h\">Revisions <span class=\"count\">(").append(revs.size())
          .append(")</span></h2><div class=\"table-wrap\"><table class=\"timeline\"><caption class=\"sr-only\">")
          .append("Revisions, newest first, page ").append(p).append(" of ").append(pages)
          .append("</caption><thead><tr><th scope=\"col\">Rev</th><th scope=\"col\">Recorded</th>")
          .append("<th scope=\"col\">Effective</th><th scope=\"col\">By</th><th scope=\"col\">Request</th>")
          .append("<th scope=\"col\">Changes</th><th scope=\"col\">Compare</th></tr></thead><tbody>");
      int top = revs.size() - 1 - (p - 1) * PAGE_SIZE;
      for (int i = top; i >= 0 && i > top - PAGE_SIZE; i--) {
        Revision r = revs.get(i);
        out.append("<tr data-rev=\"").append(r.rev()).append("\"><td><a");
        Html.attr(out, "href", Links.docAt(path, r.rev()));
        out.append(" aria-label=\"See revision ").append(r.rev()).append("\">").append(r.rev()).append("</a></td><td>");
        BrowsePage.time(out, r.recordedAt());
        out.append("</td><td>");
        Html.text(out, r.effectiveAt() == null ? "—" : r.effectiveAt());
        out.append("</td><td>");
        Html.text(out, r.by());
        if (!Revision.AGENT.equals(r.actor())) {
          out.append(" <span class=\"muted\">(");
          Html.text(out, r.actor());
          out.append(")</span>");
        }
        out.append("</td><td class=\"req\">");
        Html.text(out, r.requestId() == null ? "—" : r.requestId());
        out.append("</td><td class=\"counts\">").append(r.countSummary()).append("</td><td>");
        if (r.rev() > 0) {
          out.append("<a");
          Html.attr(out, "href", Links.diff(path, r.rev() - 1, r.rev()));
          out.append(" aria-label=\"Compare revision ").append(r.rev()).append(" with revision ").append(r.rev() - 1)
              .append("\">with ").append(r.rev() - 1).append("</a>");
        } else {
          out.append("created");
        }
        out.append("</td></tr>");
      }
      out.append("</tbody></table></div>");
      if (pages > 1) {
        out.append("<nav class=\"pager\" aria-label=\"Pages of revisions\"><ul>");
        if (p > 1) {
          pageLink(out, Links.history(path) + (p > 2 ? "?page=" + (p - 1) : ""), "Newer revisions");
        }
        out.append("<li><span aria-current=\"page\">Page ").append(p).append(" of ").append(pages).append("</span></li>");
        if (p < pages) {
          pageLink(out, Links.history(path) + "?page=" + (p + 1), "Older revisions");
        }
        out.append("</ul></nav>");
      }
      out.append("</section>");
      return out.toString();
    });
  }

  private static void pageLink(StringBuilder out, String href, String label) {
    out.append("<li><a");
    Html.attr(out, "href", href);
    out.append('>').append(label).append("</a></li>");
  }

  private static void diffForm(StringBuilder out, String path, int from, int to, int max) {
    out.append("<form class=\"diff-form\" method=\"get\"");
    Html.attr(out, "action", Links.diffPage(path));
    out.append("><fieldset><legend>Compare two revisions</legend><label for=\"d-from\">From revision</label> ")
        .append("<input id=\"d-from\" name=\"from\" type=\"number\" min=\"0\" max=\"").append(max)
        .append("\" value=\"").append(from).append("\" required> <label for=\"d-to\">to revision</label> ")
        .append("<input id=\"d-to\" name=\"to\" type=\"number\" min=\"0\" max=\"").append(max)
        .append("\" value=\"").append(to).append("\" required> <button type=\"submit\">Compare</button></fieldset></form>");
  }

  Future<String> diff(String path, int from, int to) {
    return Snapshots.read(gram, path).compose(s -> {
      if (from < 0 || to < 0 || from > s.rev() || to > s.rev()) {
        return Future.failedFuture(new dev.gram.base.GramException(dev.gram.base.ErrorCode.E_ARGUMENT,
            "revisions go from 0 to " + s.rev() + " in " + path));
      }
      String replaced = "The document was replaced while it was read; load the page again";
      Future<DocView> a = Snapshots.view(gram, s, from, true, replaced);
      Future<DocView> b = Snapshots.view(gram, s, to, true, replaced);
      return Future.all(a, b).map(x -> page(s, path, from, to, EntityDiff.between(a.result().state(), b.result().state())));
    });
  }

  private static String page(DocSnapshot s, String path, int from, int to, EntityDiff.Result d) {
    StringBuilder out = new StringBuilder(8192);
    out.append("<nav aria-label=\"Breadcrumb\" class=\"crumbs\"><ol><li><a");
    Html.attr(out, "href", Links.doc(path));
    out.append('>');
    Html.text(out, BrowsePage.title(s).isEmpty() ? path : BrowsePage.title(s));
    out.append("</a></li><li><a");
    Html.attr(out, "href", Links.history(path));
    out.append(">History</a></li><li><span aria-current=\"page\">Revision ").append(from).append(" to ").append(to)
        .append("</span></li></ol></nav><h1>Changes from revision ").append(from).append(" to ").append(to).append("</h1>");
    diffForm(out, path, from, to, s.rev());
    out.append("<p class=\"diff-summary\">").append(d.added().size()).append(" added, ").append(d.changed().size())
        .append(" changed, ").append(d.removed().size()).append(" removed. <a");
    Html.attr(out, "href", Links.docAt(path, from));
    out.append(">See revision ").append(from).append("</a> · <a");
    Html.attr(out, "href", Links.docAt(path, to));
    out.append(">See revision ").append(to).append("</a></p>");
    if (d.empty()) {
      out.append("<p>Nothing differs.</p>");
    }
    entities(out, "added", "Added", d.added());
    if (!d.changed().isEmpty()) {
      out.append("<section class=\"diff-changed\" aria-labelledby=\"changed-h\"><h2 id=\"changed-h\">Changed (")
          .append(d.changed().size()).append(")</h2>");
      for (EntityDiff.Changed c : d.changed()) {
        out.append("<div class=\"diff-entity\"");
        Html.attr(out, "data-id", c.after().id());
        out.append("><h3>");
        Kinds.badge(out, c.after().type());
        Html.text(out, c.after().isOwner() ? "The document" : c.after().title());
        out.append(" <code>");
        Html.text(out, c.after().id());
        out.append("</code></h3><div class=\"table-wrap\"><table><caption class=\"sr-only\">Changed keys of ");
        Html.text(out, c.after().title());
        out.append("</caption><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Before</th>")
            .append("<th scope=\"col\">After</th></tr></thead><tbody>");
        for (EntityDiff.KeyChange k : c.keys()) {
          out.append("<tr");
          Html.attr(out, "data-key", k.key());
          out.append("><th scope=\"row\">");
          Html.text(out, RecordDetailHtml.fieldName(k.key()));
          out.append("</th><td class=\"before\">");
          values(out, k.before(), "del");
          out.append("</td><td class=\"after\">");
          values(out, k.after(), "ins");
          out.append("</td></tr>");
        }
        out.append("</tbody></table></div></div>");
      }
      out.append("</section>");
    }
    entities(out, "removed", "Removed", d.removed());
    return out.toString();
  }

  private static void values(StringBuilder out, List<String> values, String tag) {
    if (values.isEmpty()) {
      out.append("<span class=\"muted\">(none)</span>");
      return;
    }
    for (String v : values) {
      out.append('<').append(tag).append('>');
      Html.text(out, v);
      out.append("</").append(tag).append('>');
    }
  }

  private static void entities(StringBuilder out, String id, String label, List<Entity> list) {
    if (list.isEmpty()) {
      return;
    }
    out.append("<section class=\"diff-").append(id).append("\" aria-labelledby=\"").append(id).append("-h\"><h2 id=\"")
        .append(id).append("-h\">").append(label).append(" (").append(list.size()).append(")</h2><ul>");
    for (Entity e : list) {
      out.append("<li");
      Html.attr(out, "data-id", e.id());
      out.append('>');
      Kinds.badge(out, e.type());
      out.append("<strong>");
      Html.text(out, e.isOwner() ? "The document" : e.title());
      out.append("</strong> <code>");
      Html.text(out, e.id());
      out.append("</code>");
      String x = e.first("x");
      if (x != null) {
        out.append(" <span class=\"muted\">");
        Html.text(out, x);
        out.append("</span>");
      }
      out.append("</li>");
    }
    out.append("</ul></section>");
  }
}
