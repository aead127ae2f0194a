package dev.gram.web;

import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Search: a form with {@code gram_recall}'s modes and filters, and its hits, each leading to the
 * record in its document. The answer is {@code gram_recall}'s own (the same ranking, the same
 * filters, the same cursor to the next page).
 */
final class SearchPage {
  static final List<String> MODES = List.of("auto", "keyword", "exact", "semantic", "hybrid");
  /** Form fields that are {@code gram_recall} arguments of the same name. */
  private static final List<String> FILTERS = List.of("type", "scope", "folder", "from", "to", "date");

  private final ToolCalls tools;

  SearchPage(ToolCalls tools) {
    this.tools = tools;
  }

  Future<String> render(Map<String, String> params, Visitor visitor) {
    String q = params.getOrDefault("q", "").strip();
    StringBuilder out = new StringBuilder(16_384);
    out.append("<h1>Search</h1>");
    form(out, params);
    if (q.isEmpty()) {
      out.append("<p class=\"muted\">Type what you are looking for: words, an exact phrase in quotes, ")
          .append("a date such as 2026-03. Filters narrow the records searched.</p>");
      return Future.succeededFuture(out.toString());
    }
    JsonObject args = new JsonObject().put("query", q);
    String mode = params.getOrDefault("mode", "auto");
    args.put("mode", MODES.contains(mode) ? mode : "auto");
    for (String f : FILTERS) {
      String v = params.get(f);
      if (v != null && !v.isBlank()) {
        args.put(f, v.strip());
      }
    }
    int topK = 20;
    try {
      topK = Math.max(1, Math.min(100, Integer.parseInt(params.getOrDefault("top_k", "20"))));
    } catch (NumberFormatException e) {
      // the default
    }
    args.put("top_k", topK);
    if (params.get("cursor") != null) {
      args.put("cursor", params.get("cursor"));
    }
    return tools.call("gram_recall", args, visitor)
        .map(answer -> {
          hits(out, answer, params, visitor);
          return out.toString();
        })
        .recover(e -> {
          if (e instanceof GramException g) {
            out.append("<p class=\"error\" role=\"alert\"><code>").append(g.code().name()).append("</code> ");
            Html.text(out, g.getMessage());
            out.append("</p>");
            return Future.succeededFuture(out.toString());
          }
          return Future.failedFuture(e);
        });
  }

  private static void form(StringBuilder out, Map<String, String> p) {
    out.append("<form class=\"search\" role=\"search\" method=\"get\" action=\"").append(Links.ROOT)
        .append("/search\"><div class=\"fields-row\"><label for=\"q\">Search for</label> ")
        .append("<input id=\"q\" name=\"q\" type=\"search\" size=\"40\"");
    Html.attr(out, "value", p.getOrDefault("q", ""));
    out.append("> <label for=\"mode\">Mode</label> <select id=\"mode\" name=\"mode\">");
    String mode = p.getOrDefault("mode", "auto");
    for (String m : MODES) {
      out.append("<option");
      Html.attr(out, "value", m);
      if (m.equals(mode)) {
        out.append(" selected");
      }
      out.append('>').append(m).append("</option>");
    }
    out.append("</select> <button type=\"submit\">Search</button></div><details class=\"filters\"")
        .append(FILTERS.stream().anyMatch(f -> p.get(f) != null && !p.get(f).isBlank()) ? " open" : "")
        .append("><summary>Filters</summary><div class=\"fields-row\">");
    field(out, p, "type", "Record type", "task, decision…");
    field(out, p, "folder", "Folder", "project/sub");
    field(out, p, "scope", "Scope tag", "");
    field(out, p, "from", "From date", "2026-01");
    field(out, p, "to", "To date", "2026-12-31");
    field(out, p, "date", "Date field", "due, at, observed…");
    out.append("<label for=\"top_k\">Hits</label> <input id=\"top_k\" name=\"top_k\" type=\"number\" min=\"1\" max=\"100\"");
    Html.attr(out, "value", p.getOrDefault("top_k", "20"));
    out.append("></div></details></form>");
  }

  private static void field(StringBuilder out, Map<String, String> p, String name, String label, String hint) {
    out.append("<label for=\"f-").append(name).append("\">").append(label).append("</label> <input id=\"f-")
        .append(name).append("\"");
    Html.attr(out, "name", name);
    Html.attr(out, "value", p.getOrDefault(name, ""));
    if (!hint.isEmpty()) {
      Html.attr(out, "placeholder", hint);
    }
    out.append("> ");
  }

  private static void hits(StringBuilder out, JsonObject answer, Map<String, String> params, Visitor visitor) {
    JsonArray hits = answer.getJsonArray("hits", new JsonArray());
    out.append("<section id=\"hits\" aria-labelledby=\"hits-h\"><h2 id=\"hits-h\">Hits <span class=\"count\">(")
        .append(hits.size()).append(answer.containsKey("cursor") ? "+" : "").append(")</span></h2>");
    if (answer.getString("mode") != null) {
      out.append("<p class=\"muted\">Searched in ").append(Html.esc(answer.getString("mode"))).append(" mode");
      if (answer.getString("fallback") != null) {
        out.append(" (").append(Html.esc(answer.getString("fallback"))).append(')');
      }
      out.append(".</p>");
    }
    if (hits.isEmpty()) {
      out.append("<p>Nothing found.</p></section>");
      return;
    }
    out.append("<ol class=\"hits\">");
    for (int i = 0; i < hits.size(); i++) {
      JsonArray h = hits.getJsonArray(i);
      String ref = h.getString(0);
      int hash = ref.indexOf('#');
      String path = hash < 0 ? ref : ref.substring(0, hash);
      String id = hash < 0 ? null : ref.substring(hash + 1);
      if (!visitor.mayRead(path)) {
        continue;
      }
      String type = h.getString(1);
      boolean document = "document".equals(type);
      out.append("<li class=\"hit\"");
      Html.attr(out, "data-ref", ref);
      out.append("><a class=\"title\"");
      Html.attr(out, "href", document || id == null ? Links.doc(path) : Links.record(path, id));
      out.append('>');
      Html.text(out, h.getString(2));
      out.append("</a> <span class=\"chip\">");
      Html.text(out, type);
      out.append("</span>");
      if (h.size() > 3 && h.getValue(3) != null) {
        out.append(" <span class=\"chip status\"><span class=\"sr-only\">status: </span>");
        Html.text(out, String.valueOf(h.getValue(3)));
        out.append("</span>");
      }
      out.append("<br><span class=\"muted path\">");
      Html.text(out, path);
      out.append("</span>");
      for (int k = 4; k < h.size(); k++) {
        Object extra = h.getValue(k);
        if (extra != null) {
          out.append(" <span class=\"muted\">");
          Html.text(out, extra instanceof Double d ? "similarity " + d : String.valueOf(extra));
          out.append("</span>");
        }
      }
      out.append("</li>");
    }
    out.append("</ol>");
    if (answer.getString("cursor") != null) {
      StringBuilder next = new StringBuilder(Links.ROOT).append("/search?");
      boolean first = true;
      for (Map.Entry<String, String> e : params.entrySet()) {
        if (!e.getKey().equals("cursor")) {
          next.append(first ? "" : "&").append(Links.q(e.getKey())).append('=').append(Links.q(e.getValue()));
          first = false;
        }
      }
      next.append("&cursor=").append(Links.q(answer.getString("cursor")));
      out.append("<p><a");
      Html.attr(out, "href", next.toString());
      out.append(">More hits</a></p>");
    }
    out.append("</section>");
  }
}
