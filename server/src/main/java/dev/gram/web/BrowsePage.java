package dev.gram.web;

import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.store.DocumentReader;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The vault at a glance: its projects and mounts ({@code gram_projects}), the folders and
 * documents of the folder being looked at, with title, revision, last writer and time, sorted and
 * filtered on the server and shown a page at a time (so ten thousand documents cost one page of
 * HTML), and the recent activity of that folder ({@code gram_changes}).
 */
final class BrowsePage {
  static final int PAGE_SIZE = 50;

  /** What the person asked for. */
  record Query(String folder, String filter, String sort, boolean descending, int page) {
    static Query of(Map<String, String> params) {
      String sort = params.getOrDefault("sort", "time");
      if (!List.of("title", "path", "rev", "by", "time").contains(sort)) {
        sort = "time";
      }
      String dir = params.get("dir");
      boolean desc = dir == null ? sort.equals("time") || sort.equals("rev") : dir.equals("desc");
      int page = 1;
      try {
        page = Math.max(1, Integer.parseInt(params.getOrDefault("page", "1")));
      } catch (NumberFormatException e) {
        // the first page
      }
      String folder = params.getOrDefault("folder", "").strip();
      if (folder.endsWith("/")) {
        folder = folder.substring(0, folder.length() - 1);
      }
      return new Query(folder, params.getOrDefault("filter", "").strip(), sort, desc, page);
    }

    String url(String sortBy, boolean desc, int toPage) {
      StringBuilder s = new StringBuilder(Links.home()).append("?sort=").append(sortBy)
          .append("&dir=").append(desc ? "desc" : "asc");
      if (!folder.isEmpty()) {
        s.append("&folder=").append(Links.q(folder));
      }
      if (!filter.isEmpty()) {
        s.append("&filter=").append(Links.q(filter));
      }
      if (toPage > 1) {
        s.append("&page=").append(toPage);
      }
      return s.toString();
    }
  }

  private final DocumentReader reader;
  private final ToolCalls tools;
  private final RecentActivity activity;

  BrowsePage(DocumentReader reader, ToolCalls tools) {
    this.reader = reader;
    this.tools = tools;
    this.activity = new RecentActivity(tools);
  }

  /** The whole page's main content. */
  Future<String> render(Query q, Visitor visitor) {
    return reader.scanned().compose(v -> {
      List<DocSnapshot> scope = scope(q, visitor);
      Future<JsonObject> projects = tools.call("gram_projects", new JsonObject(), visitor);
      Future<String> recent = activity.render(q.folder(), scope, visitor);
      return Future.all(projects, recent).map(all -> {
        StringBuilder out = new StringBuilder(32_768);
        out.append("<div class=\"browse\"><nav class=\"side\" aria-label=\"Projects and mounts\">");
        side(out, projects.result(), q, visitor);
        out.append("</nav><div class=\"listing\">");
        heading(out, q);
        folders(out, q, scope);
        filterForm(out, q);
        docs(out, q, scope);
        out.append(recent.result());
        out.append("</div></div>");
        return out.toString();
      });
    });
  }

  /** The documents section alone, for a live refresh. */
  Future<String> docsPart(Query q, Visitor visitor) {
    return reader.scanned().map(v -> {
      StringBuilder out = new StringBuilder(16_384);
      docs(out, q, scope(q, visitor));
      return out.toString();
    });
  }

  /** The activity section alone, for a live refresh. */
  Future<String> activityPart(Query q, Visitor visitor) {
    return reader.scanned().compose(v -> activity.render(q.folder(), scope(q, visitor), visitor));
  }

  private List<DocSnapshot> scope(Query q, Visitor visitor) {
    List<DocSnapshot> all = q.folder().isEmpty()
        ? reader.documents()
        : reader.documentsUnder(reader.paths().folder(q.folder()));
    List<DocSnapshot> out = new ArrayList<>(all.size());
    for (DocSnapshot s : all) {
      if (visitor.mayRead(s.path())) {
        out.add(s);
      }
    }
    return out;
  }

  private static void heading(StringBuilder out, Query q) {
    out.append("<h1>");
    if (q.folder().isEmpty()) {
      out.append("Vault");
    } else {
      Html.text(out, q.folder());
    }
    out.append("</h1>");
    if (!q.folder().isEmpty()) {
      out.append("<nav aria-label=\"Breadcrumb\" class=\"crumbs\"><ol><li><a href=\"").append(Links.home())
          .append("\">Vault</a></li>");
      String[] parts = q.folder().split("/");
      StringBuilder acc = new StringBuilder();
      for (int i = 0; i < parts.length; i++) {
        acc.append(i == 0 ? "" : "/").append(parts[i]);
        out.append("<li>");
        if (i < parts.length - 1) {
          out.append("<a");
          Html.attr(out, "href", Links.folder(acc.toString()));
          out.append('>');
          Html.text(out, parts[i]);
          out.append("</a>");
        } else {
          out.append("<span aria-current=\"page\">");
          Html.text(out, parts[i]);
          out.append("</span>");
        }
        out.append("</li>");
      }
      out.append("</ol></nav>");
    }
  }

  private static void side(StringBuilder out, JsonObject projects, Query q, Visitor visitor) {
    out.append("<h2>Projects</h2><ul>");
    JsonArray rows = projects.getJsonArray("projects", new JsonArray());
    int shown = 0;
    for (int i = 0; i < rows.size(); i++) {
      JsonArray row = rows.getJsonArray(i);
      String name = row.getString(0);
      if (!visitor.mayRead(name + "/")) {
        continue;
      }
      shown++;
      sideLink(out, name, name, row.getValue(1), q);
    }
    if (shown == 0) {
      out.append("<li class=\"muted\">No projects yet.</li>");
    }
    out.append("</ul>");
    JsonArray mounts = projects.getJsonArray("mounts", new JsonArray());
    if (!mounts.isEmpty()) {
      out.append("<h2>Mounts</h2><ul>");
      for (int i = 0; i < mounts.size(); i++) {
        JsonObject m = mounts.getJsonObject(i);
        if (visitor.mayRead(m.getString("key") + "/")) {
          sideLink(out, m.getString("key"), m.getString("id") + " (" + m.getString("access") + ")",
              m.getValue("count"), q);
        }
      }
      out.append("</ul>");
    }
  }

  private static void sideLink(StringBuilder out, String folder, String label, Object count, Query q) {
    out.append("<li><a");
    Html.attr(out, "href", Links.folder(folder));
    if (folder.equals(q.folder())) {
      out.append(" aria-current=\"page\"");
    }
    out.append('>');
    Html.text(out, label);
    out.append("</a> <span class=\"count\">").append(count == null ? "" : count).append("</span></li>");
  }

  /** The folders directly inside the one looked at, with how many documents each holds. */
  private static void folders(StringBuilder out, Query q, List<DocSnapshot> scope) {
    if (q.folder().isEmpty()) {
      return;
    }
    String prefix = q.folder() + "/";
    Map<String, Integer> sub = new TreeMap<>();
    for (DocSnapshot s : scope) {
      String rest = s.path().substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        sub.merge(rest.substring(0, slash), 1, Integer::sum);
      }
    }
    if (sub.isEmpty()) {
      return;
    }
    out.append("<section aria-labelledby=\"folders-h\"><h2 id=\"folders-h\">Folders</h2><ul class=\"folders\">");
    for (Map.Entry<String, Integer> e : sub.entrySet()) {
      out.append("<li><a");
      Html.attr(out, "href", Links.folder(prefix + e.getKey()));
      out.append('>');
      Html.text(out, e.getKey());
      out.append("/</a> <span class=\"count\">").append(e.getValue()).append("</span></li>");
    }
    out.append("</ul></section>");
  }

  private static void filterForm(StringBuilder out, Query q) {
    out.append("<form class=\"filter\" method=\"get\" action=\"").append(Links.home()).append("\">");
    if (!q.folder().isEmpty()) {
      out.append("<input type=\"hidden\" name=\"folder\"");
      Html.attr(out, "value", q.folder());
      out.append('>');
    }
    out.append("<label for=\"filter\">Filter by title or path</label> <input id=\"filter\" name=\"filter\" type=\"search\"");
    Html.attr(out, "value", q.filter());
    out.append("> <label for=\"sort\">Sort by</label> <select id=\"sort\" name=\"sort\">");
    for (String[] o : new String[][] {{"time", "last change"}, {"title", "title"}, {"path", "path"},
        {"rev", "revision"}, {"by", "last writer"}}) {
      out.append("<option");
      Html.attr(out, "value", o[0]);
      if (o[0].equals(q.sort())) {
        out.append(" selected");
      }
      out.append('>').append(o[1]).append("</option>");
    }
    out.append("</select> <label for=\"dir\">Order</label> <select id=\"dir\" name=\"dir\"><option value=\"desc\"")
        .append(q.descending() ? " selected" : "").append(">descending</option><option value=\"asc\"")
        .append(q.descending() ? "" : " selected").append(">ascending</option></select> ")
        .append("<button type=\"submit\">Apply</button></form>");
  }

  private static void docs(StringBuilder out, Query q, List<DocSnapshot> scope) {
    String needle = q.filter().toLowerCase(Locale.ROOT);
    List<DocSnapshot> rows = new ArrayList<>(scope.size());
    for (DocSnapshot s : scope) {
      if (needle.isEmpty() || s.path().toLowerCase(Locale.ROOT).contains(needle)
          || title(s).toLowerCase(Locale.ROOT).contains(needle)) {
        rows.add(s);
      }
    }
    Comparator<DocSnapshot> order = switch (q.sort()) {
      case "title" -> Comparator.comparing(BrowsePage::title, String.CASE_INSENSITIVE_ORDER);
      case "path" -> Comparator.comparing(DocSnapshot::path);
      case "rev" -> Comparator.comparingInt(DocSnapshot::rev);
      case "by" -> Comparator.comparing(BrowsePage::by, String.CASE_INSENSITIVE_ORDER);
      default -> Comparator.comparing(BrowsePage::time);
    };
    order = order.thenComparing(DocSnapshot::path);
    rows.sort(q.descending() ? order.reversed() : order);
    int pages = Math.max(1, (rows.size() + PAGE_SIZE - 1) / PAGE_SIZE);
    int page = Math.min(q.page(), pages);
    List<DocSnapshot> shown = rows.subList((page - 1) * PAGE_SIZE, Math.min(rows.size(), page * PAGE_SIZE));

    out.append("<section id=\"docs\" aria-labelledby=\"docs-h\"");
    Html.attr(out, "data-live-src", q.url(q.sort(), q.descending(), page) + "&part=docs");
    out.append("><h2 id=\"docs-h\">Documents <span class=\"count\">(").append(rows.size()).append(")</span></h2>");
    if (rows.isEmpty()) {
      out.append("<p class=\"muted\">No documents here").append(needle.isEmpty() ? "" : " match the filter")
          .append(".</p></section>");
      return;
    }
    out.append("<div class=\"table-wrap\"><table class=\"docs\"><caption class=\"sr-only\">Documents, page ")
        .append(page).append(" of ").append(pages).append("</caption><thead><tr>");
    header(out, q, "title", "Title");
    header(out, q, "path", "Path");
    header(out, q, "rev", "Rev");
    header(out, q, "by", "Last writer");
    header(out, q, "time", "Last change");
    out.append("</tr></thead><tbody>");
    for (DocSnapshot s : shown) {
      out.append("<tr");
      Html.attr(out, "data-path", s.path());
      out.append("><td><a");
      Html.attr(out, "href", Links.doc(s.path()));
      out.append('>');
      String t = title(s);
      Html.text(out, t.isEmpty() ? s.path() : t);
      out.append("</a></td><td class=\"path\">");
      Html.text(out, s.path());
      out.append("</td><td class=\"rev\">").append(s.rev()).append("</td><td class=\"by\">");
      Html.text(out, by(s));
      out.append("</td><td class=\"time\">");
      time(out, time(s));
      out.append("</td></tr>");
    }
    out.append("</tbody></table></div>");
    if (pages > 1) {
      out.append("<nav class=\"pager\" aria-label=\"Pages of documents\"><ul>");
      if (page > 1) {
        pageLink(out, q.url(q.sort(), q.descending(), page - 1), "Previous page");
      }
      out.append("<li><span aria-current=\"page\">Page ").append(page).append(" of ").append(pages).append("</span></li>");
      if (page < pages) {
        pageLink(out, q.url(q.sort(), q.descending(), page + 1), "Next page");
      }
      out.append("</ul></nav>");
    }
    out.append("</section>");
  }

  private static void pageLink(StringBuilder out, String href, String label) {
    out.append("<li><a");
    Html.attr(out, "href", href);
    out.append('>').append(label).append("</a></li>");
  }

  private static void header(StringBuilder out, Query q, String key, String label) {
    boolean current = q.sort().equals(key);
    boolean nextDesc = current ? !q.descending() : key.equals("time") || key.equals("rev");
    out.append("<th scope=\"col\"");
    if (current) {
      out.append(" aria-sort=\"").append(q.descending() ? "descending" : "ascending").append('"');
    }
    out.append("><a");
    Html.attr(out, "href", q.url(key, nextDesc, 1));
    out.append('>').append(label);
    if (current) {
      out.append(q.descending() ? " <span aria-hidden=\"true\">▼</span>" : " <span aria-hidden=\"true\">▲</span>");
    }
    out.append("</a></th>");
  }

  static String title(DocSnapshot s) {
    return s.state() == null ? "" : s.state().title();
  }

  static String by(DocSnapshot s) {
    return s.history() == null ? "" : s.head().by();
  }

  static Instant time(DocSnapshot s) {
    return s.history() == null ? Instant.EPOCH : s.head().recordedAt();
  }

  static void time(StringBuilder out, Instant t) {
    if (t == null || t.equals(Instant.EPOCH)) {
      out.append("—");
      return;
    }
    String iso = Times.format(t);
    out.append("<time");
    Html.attr(out, "datetime", iso);
    out.append('>');
    Html.text(out, iso.substring(0, 10) + " " + iso.substring(11, 19) + " UTC");
    out.append("</time>");
  }
}
