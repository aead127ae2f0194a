package dev.gram.web;

import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.format.Revision;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A document's page: its state as the profile shows it ({@link DocumentHtml}), the revision
 * shown and who wrote it, the way to see it as it was (at a revision, a recorded time or an
 * effective time), and, on the current state, what a person may do: tick a task, change a
 * record's title or status, add a note. Also a record's own page, whose fields, links and blocks
 * a document page fetches when a record's details are opened.
 */
final class DocumentPage {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** A revision that changed more records than this has none of them marked on the page. */
  static final int MARKED_CHANGES = 50;

  /** The document and what was rendered of it: its page title and main content. */
  record Rendered(String title, String path, boolean current, String html) {}

  private final GramContext gram;

  DocumentPage(GramContext gram) {
    this.gram = gram;
  }

  /** Which state a request asks for: {@code rev}, or {@code recorded} and/or {@code effective}. */
  static JsonObject selector(Map<String, String> params) {
    JsonObject s = new JsonObject();
    String rev = params.get("rev");
    if (rev != null && !rev.isBlank()) {
      try {
        s.put("revision", Integer.parseInt(rev.strip()));
      } catch (NumberFormatException e) {
        throw new dev.gram.base.GramException(dev.gram.base.ErrorCode.E_ARGUMENT, "rev is not a revision number: " + rev);
      }
    }
    putIf(s, "recorded_at", params.get("recorded"));
    putIf(s, "effective_at", params.get("effective"));
    return s;
  }

  private static void putIf(JsonObject s, String key, String value) {
    if (value != null && !value.isBlank()) {
      s.put(key, value.strip());
    }
  }

  Future<DocView> view(String path, JsonObject selector) {
    return Snapshots.read(gram, path).compose(s -> {
      Selectors.Point point = Selectors.point(s, selector);
      return Snapshots.view(gram, s, point, !selector.isEmpty(),
          "The document was replaced while it was read; load the page again");
    });
  }

  /** The document's article: everything a live refresh replaces. */
  Future<Rendered> render(String path, Map<String, String> params, Visitor visitor) {
    JsonObject selector;
    try {
      selector = selector(params);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return view(path, selector).compose(v -> gram.vertx().executeBlocking(() -> article(v, selector, visitor), false));
  }

  private Rendered article(DocView v, JsonObject selector, Visitor visitor) {
    DocSnapshot s = v.snapshot();
    GramDocument state = v.state();
    boolean current = selector.isEmpty() || (v.rev() == s.rev() && v.effective() == null);
    boolean editable = current && s.writable() && s.location().writable() && visitor.mayWrite(s.path());
    String self = selector.isEmpty() ? Links.doc(s.path()) : Links.doc(s.path()) + "?" + query(selector);
    Revision shownRev = s.history() == null ? null : s.revisions().get(v.rev());
    if (v.effective() != null && s.history() != null) {
      shownRev = s.revisions().get(v.at().getInteger("rev"));
    }
    Set<String> changed = new HashSet<>();
    // A create or a bulk rewrite changes everything: marking it all would mark nothing.
    if (shownRev != null && shownRev.rev() > 0 && shownRev.changes().size() <= MARKED_CHANGES) {
      for (Revision.Change c : shownRev.changes()) {
        changed.add(c.id());
      }
    }
    Function<String, String> pathOf = readablePath(visitor);
    DocumentHtml.Frame frame = new DocumentHtml.Frame(
        s.path(), self, refs(state, visitor), pathOf, editable, changed);
    String nonce = newNonce();

    StringBuilder out = new StringBuilder(8192 + state.records().size() * 400);
    out.append("<article id=\"doc\" class=\"doc\" aria-labelledby=\"doc-title\"");
    Html.attr(out, "data-path", s.path());
    out.append(" data-rev=\"").append(s.rev()).append("\" data-shown-rev=\"").append(v.rev()).append('"');
    Html.attr(out, "data-hash", s.shortHash());
    if (current) {
      Html.attr(out, "data-live-src", Links.doc(s.path()) + "?part=doc");
    }
    out.append("><header class=\"doc-head\"><h1 id=\"doc-title\">");
    Html.text(out, state.title().isEmpty() ? s.path() : state.title());
    out.append("</h1><p class=\"meta\"><span class=\"path\">");
    Html.text(out, s.path());
    out.append("</span> · <span class=\"rev\">revision ").append(v.rev()).append("</span>");
    if (current) {
      out.append(" · hash <code>").append(s.shortHash()).append("</code>");
    }
    out.append("</p><nav class=\"doc-nav\" aria-label=\"Document\"><ul><li><a");
    Html.attr(out, "href", Links.history(s.path()));
    out.append(">History</a></li><li><a");
    Html.attr(out, "href", Links.folder(s.location().parent()));
    out.append(">Folder</a></li><li><button type=\"button\" class=\"link\" data-print hidden>Print</button></li></ul></nav>");
    if (!current) {
      out.append("<p class=\"past\" role=\"note\"><strong>You are looking at the past.</strong> ");
      if (v.effective() != null) {
        out.append("As the facts stood at ");
        BrowsePage.time(out, v.effective());
        out.append(", as recorded up to revision ").append(v.rev()).append(". ");
      } else {
        out.append("Revision ").append(v.rev()).append(" of ").append(s.rev()).append(". ");
      }
      out.append("<a");
      Html.attr(out, "href", Links.doc(s.path()));
      out.append(">See the current revision (").append(s.rev()).append(")</a></p>");
    }
    if (shownRev != null) {
      revisionBanner(out, shownRev, state, s.path());
    }
    out.append("</header>");
    if (editable) {
      out.append("<form id=\"").append(RecordHtml.EDIT_FORM).append("\" class=\"edit-form\" method=\"post\"");
      Html.attr(out, "action", Links.edit(s.path()));
      out.append('>');
      casFields(out, s, nonce);
      out.append("</form>");
    }
    out.append(new DocumentHtml(frame).render());
    if (editable) {
      noteForm(out, s, nonce);
    }
    travelForm(out, s, v, selector);
    out.append("</article>");
    return new Rendered(state.title().isEmpty() ? s.path() : state.title(), s.path(), current, out.toString());
  }

  /**
   * The path of another document by its id, when the visitor may read it: a reference to a
   * document the visitor may not see reads as unresolved and names nothing of it.
   */
  private Function<String, String> readablePath(Visitor visitor) {
    return docId -> {
      String p = gram.reader().pathOfDocumentId(docId);
      return p != null && visitor.mayRead(p) ? p : null;
    };
  }

  /** What a body's references resolve to, across the documents the visitor may read. */
  private BodyRefs refs(GramDocument state, Visitor visitor) {
    Function<String, String> pathOf = readablePath(visitor);
    return new BodyRefs(state, docId -> {
      String p = pathOf.apply(docId);
      DocSnapshot other = p == null ? null : gram.reader().peek(p);
      return other == null ? null : other.state();
    });
  }

  private static byte[] nonce() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return b;
  }

  static String newNonce() {
    return HexFormat.of().formatHex(nonce());
  }

  /** The compare-and-swap pair a form was rendered against, and the page's nonce. */
  static void casFields(StringBuilder out, DocSnapshot s, String nonce) {
    out.append("<input type=\"hidden\" name=\"rev\" value=\"").append(s.rev()).append('"');
    out.append("><input type=\"hidden\" name=\"hash\"");
    Html.attr(out, "value", s.shortHash());
    out.append("><input type=\"hidden\" name=\"nonce\"");
    Html.attr(out, "value", nonce);
    out.append('>');
  }

  private static String query(JsonObject selector) {
    StringBuilder q = new StringBuilder();
    if (selector.containsKey("revision")) {
      q.append("rev=").append(selector.getValue("revision"));
    }
    for (String[] k : new String[][] {{"recorded_at", "recorded"}, {"effective_at", "effective"}}) {
      if (selector.containsKey(k[0])) {
        q.append(q.length() == 0 ? "" : "&").append(k[1]).append('=').append(Links.q(selector.getString(k[0])));
      }
    }
    return q.toString();
  }

  /** Who wrote the revision shown, when, and what it added, changed and removed. */
  static void revisionBanner(StringBuilder out, Revision r, GramDocument state, String path) {
    out.append("<div class=\"revision\"><p>Revision ").append(r.rev()).append(" by <span class=\"by\">");
    Html.text(out, r.by());
    out.append("</span>");
    if (!Revision.AGENT.equals(r.actor())) {
      out.append(" <span class=\"muted\">(").append(Html.esc(r.actor())).append(")</span>");
    }
    out.append(", recorded ");
    BrowsePage.time(out, r.recordedAt());
    if (r.effectiveAt() != null) {
      out.append(", effective ");
      Html.text(out, r.effectiveAt());
    }
    out.append(" <span class=\"counts\">").append(r.countSummary()).append("</span></p>");
    JsonObject c = new JsonObject();
    io.vertx.core.json.JsonArray add = new io.vertx.core.json.JsonArray();
    io.vertx.core.json.JsonArray set = new io.vertx.core.json.JsonArray();
    io.vertx.core.json.JsonArray del = new io.vertx.core.json.JsonArray();
    for (Revision.Change ch : r.changes()) {
      Entity e = state.entity(ch.id());
      String title = e == null ? ch.id() : e.isOwner() ? "the document" : e.title();
      switch (ch.kind()) {
        case ADD -> add.add(new io.vertx.core.json.JsonArray().add(ch.id()).add(ch.type()).add(title));
        case SET -> set.add(new io.vertx.core.json.JsonArray().add(ch.id()).add(title)
            .add(new io.vertx.core.json.JsonArray(new java.util.ArrayList<>(ch.keys()))));
        case DEL -> del.add(new io.vertx.core.json.JsonArray().add(ch.id()).add(ch.id()));
      }
    }
    ChangeRows.what(out, c.put("add", add).put("set", set).put("del", del));
    out.append("</div>");
  }

  private static void noteForm(StringBuilder out, DocSnapshot s, String nonce) {
    out.append("<section class=\"add-note\" aria-labelledby=\"note-h\"><h2 id=\"note-h\">Add a note</h2>")
        .append("<form class=\"edit-form\" method=\"post\"");
    Html.attr(out, "action", Links.edit(s.path()));
    out.append('>');
    casFields(out, s, nonce);
    out.append("<label for=\"note-text\">Note (its first line is its title)</label>")
        .append("<textarea id=\"note-text\" name=\"text\" rows=\"3\" required></textarea>")
        .append("<button type=\"submit\" name=\"op\" value=\"note\">Add note</button></form></section>");
  }

  private static void travelForm(StringBuilder out, DocSnapshot s, DocView v, JsonObject selector) {
    out.append("<section class=\"travel\" aria-labelledby=\"travel-h\"><h2 id=\"travel-h\">See it as it was</h2>")
        .append("<form method=\"get\"");
    Html.attr(out, "action", Links.doc(s.path()));
    out.append("><p class=\"muted\">Give a revision, or a time it was recorded, or a time its facts were ")
        .append("effective (ISO, such as 2026-03-01 or 2026-03-01T12:00:00Z), or both times.</p>")
        .append("<div class=\"fields-row\"><label for=\"tt-rev\">Revision</label> ")
        .append("<input id=\"tt-rev\" name=\"rev\" type=\"number\" min=\"0\" max=\"").append(s.rev()).append('"');
    if (selector.containsKey("revision")) {
      Html.attr(out, "value", String.valueOf(selector.getValue("revision")));
    }
    out.append("> <label for=\"tt-recorded\">Recorded at</label> <input id=\"tt-recorded\" name=\"recorded\"");
    Html.attr(out, "value", selector.getString("recorded_at", ""));
    out.append("> <label for=\"tt-effective\">Effective at</label> <input id=\"tt-effective\" name=\"effective\"");
    Html.attr(out, "value", selector.getString("effective_at", ""));
    out.append("> <button type=\"submit\">Show</button></div></form>");
    if (s.history() != null && !s.revisions().isEmpty()) {
      out.append("<p class=\"muted\">First recorded ");
      BrowsePage.time(out, s.revisions().get(0).recordedAt());
      out.append(", last ");
      BrowsePage.time(out, s.head().recordedAt());
      out.append(".</p>");
    }
    out.append("</section>");
  }

  /** A record's page, or with {@code part=rec} its details alone. */
  Future<String> record(String path, String id, Map<String, String> params, Visitor visitor, boolean part) {
    JsonObject selector;
    try {
      selector = selector(params);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return view(path, selector).map(v -> {
      GramDocument state = v.state();
      Entity e = state.entity(id);
      if (e == null) {
        throw new dev.gram.base.GramException(dev.gram.base.ErrorCode.E_ARGUMENT,
            "No record " + id + " in " + path + " at revision " + v.rev());
      }
      DocSnapshot s = v.snapshot();
      boolean editable = selector.isEmpty() && !params.containsKey("read") && !e.isOwner()
          && s.writable() && s.location().writable() && visitor.mayWrite(s.path());
      StringBuilder out = new StringBuilder(4096);
      if (!part) {
        out.append("<nav aria-label=\"Breadcrumb\" class=\"crumbs\"><ol><li><a");
        Html.attr(out, "href", Links.doc(path));
        out.append('>');
        Html.text(out, state.title().isEmpty() ? path : state.title());
        out.append("</a></li><li><span aria-current=\"page\">");
        Html.text(out, e.title());
        out.append("</span></li></ol></nav><h1>");
        Html.text(out, e.title());
        out.append("</h1>");
      }
      InlineMd inline = new InlineMd(new InlineMd.Targets() {
        @Override
        public String mention(String ref) {
          BodyRefs.Ref r = refs(state, visitor).resolve(ref);
          if (r == null) {
            return null;
          }
          if (r.doc() == state) {
            return Links.record(path, r.entity().id());
          }
          String other = readablePath(visitor).apply(r.doc().id());
          return other == null ? null : Links.record(other, r.entity().id());
        }

        @Override
        public String link(String target) {
          return Links.target(target, readablePath(visitor));
        }
      });
      RecordDetailHtml.detail(out, e, state, path, readablePath(visitor), inline);
      if (editable) {
        editForm(out, s, e);
      }
      if (!part) {
        out.append("<p><a");
        Html.attr(out, "href", Links.record(path, id));
        out.append(">Back to the document</a></p>");
      }
      return out.toString();
    });
  }

  /** Title and status of one record, with the values shown, so that only what changed is sent. */
  static void editForm(StringBuilder out, DocSnapshot s, Entity e) {
    String key = e.id().replaceAll("[^A-Za-z0-9_-]", "_");
    out.append("<form class=\"edit-form record-edit\" method=\"post\"");
    Html.attr(out, "action", Links.edit(s.path()));
    out.append('>');
    casFields(out, s, newNonce());
    out.append("<input type=\"hidden\" name=\"id\"");
    Html.attr(out, "value", e.id());
    out.append("><input type=\"hidden\" name=\"title0\"");
    Html.attr(out, "value", e.first("t") == null ? "" : e.first("t"));
    out.append("><input type=\"hidden\" name=\"status0\"");
    Html.attr(out, "value", e.first("x") == null ? "" : e.first("x"));
    out.append("><div class=\"fields-row\"><label for=\"t-").append(key).append("\">Title</label> <input id=\"t-")
        .append(key).append("\" name=\"title\" required");
    Html.attr(out, "value", e.first("t") == null ? "" : e.first("t"));
    out.append("> <label for=\"x-").append(key).append("\">Status</label> <input id=\"x-").append(key)
        .append("\" name=\"status\" list=\"statuses-").append(key).append("\"");
    Html.attr(out, "value", e.first("x") == null ? "" : e.first("x"));
    out.append("><datalist id=\"statuses-").append(key).append("\"><option value=\"open\"><option value=\"active\"><option value=\"blocked\">")
        .append("<option value=\"completed\"><option value=\"accepted\"><option value=\"superseded\"></datalist>")
        .append(" <button type=\"submit\" name=\"op\" value=\"record\">Save</button></div></form>");
  }
}
