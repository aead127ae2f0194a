package dev.gram.web;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.format.Hashes;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A person's edits: tick a task, change a record's title or status, add a note. Each is one
 * {@code gram_patch} against the revision and hash the person's page showed, with a request_id
 * of its own (the page's nonce and the intent's digest, so sending the same form twice is one
 * change), attributed to the person. A patch that finds the document moved is never forced: the
 * person sees what changed meanwhile, their own change, and a button that applies it again to
 * the revision they now see.
 */
final class Edits {
  /** What a form asks for: the operations, in words, and the record it is about (or null). */
  record Intent(String what, JsonArray operations, String target) {}

  /** What the browser gets: a redirect to the document, or a page with a status. */
  record Outcome(int status, String location, String html) {}

  private final GramContext gram;
  private final ToolCalls tools;

  Edits(GramContext gram, ToolCalls tools) {
    this.gram = gram;
    this.tools = tools;
  }

  /** Reads the intent from a submitted form; {@code E_ARGUMENT} when it asks for nothing. */
  static Intent intent(Map<String, String> form) {
    String tick = form.get("tick");
    if (tick != null) {
      int space = tick.lastIndexOf(' ');
      if (space <= 0) {
        throw new GramException(ErrorCode.E_ARGUMENT, "tick must be '<record id> <status>'");
      }
      String id = tick.substring(0, space);
      String status = tick.substring(space + 1);
      return new Intent((status.equals("completed") ? "Tick " : "Untick ") + id + " (status " + status + ")",
          new JsonArray().add(set(id, "x", status)), id);
    }
    String op = form.getOrDefault("op", "");
    switch (op) {
      case "record" -> {
        String id = required(form, "id");
        JsonArray ops = new JsonArray();
        List<String> said = new ArrayList<>();
        String title = form.getOrDefault("title", "").strip();
        if (!title.equals(form.getOrDefault("title0", "").strip())) {
          if (title.isEmpty()) {
            throw new GramException(ErrorCode.E_ARGUMENT, "a record's title cannot be empty");
          }
          ops.add(set(id, "t", title));
          said.add("title to “" + title + "”");
        }
        String status = form.getOrDefault("status", "").strip();
        if (!status.equals(form.getOrDefault("status0", "").strip())) {
          ops.add(status.isEmpty()
              ? new JsonObject().put("op", "unset").put("entity", id).put("key", "x")
              : set(id, "x", status));
          said.add(status.isEmpty() ? "no status" : "status to “" + status + "”");
        }
        if (ops.isEmpty()) {
          throw new GramException(ErrorCode.E_ARGUMENT, "nothing changed: the title and status are as they were");
        }
        return new Intent("Set " + id + "'s " + String.join(" and ", said), ops, id);
      }
      case "note" -> {
        String text = required(form, "text").strip();
        int nl = text.indexOf('\n');
        String title = (nl < 0 ? text : text.substring(0, nl)).strip();
        String rest = nl < 0 ? "" : text.substring(nl + 1).strip();
        JsonObject fields = new JsonObject().put("t", new JsonArray().add(title)).put("tag", new JsonArray().add("note"));
        if (!rest.isEmpty()) {
          fields.put("d", new JsonArray().add(rest));
        }
        JsonObject add = new JsonObject().put("op", "add")
            .put("record", new JsonObject().put("type", "knowledge").put("fields", fields))
            .put("place", "end");
        return new Intent("Add the note “" + title + "”", new JsonArray().add(add), null);
      }
      default -> throw new GramException(ErrorCode.E_ARGUMENT, "the form asks for no change");
    }
  }

  private static JsonObject set(String id, String key, String value) {
    return new JsonObject().put("op", "set").put("entity", id).put("key", key).put("value", value);
  }

  private static String required(Map<String, String> form, String key) {
    String v = form.get(key);
    if (v == null || v.isBlank()) {
      throw new GramException(ErrorCode.E_ARGUMENT, key + " is required");
    }
    return v;
  }

  /** The request_id of one intent sent from one rendering of a page. */
  static String requestId(String nonce, Intent intent) {
    return "ui-" + nonce + "-" + Hashes.sha256(intent.operations().encode()).substring(0, 16);
  }

  Future<Outcome> submit(String path, Map<String, String> form, Visitor visitor) {
    Intent intent;
    int base;
    try {
      if (!visitor.mayWrite(path)) {
        throw new GramException(ErrorCode.E_READ_ONLY, "You may read this document but not change it");
      }
      intent = intent(form);
      base = Integer.parseInt(required(form, "rev"));
    } catch (NumberFormatException e) {
      return Future.failedFuture(new GramException(ErrorCode.E_ARGUMENT, "rev is not a revision number"));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
    String nonce = form.getOrDefault("nonce", DocumentPage.newNonce()).replaceAll("[^0-9a-f]", "");
    JsonObject args = new JsonObject()
        .put("path", path)
        .put("base_revision", base)
        .put("expected_hash", required(form, "hash"))
        .put("request_id", requestId(nonce.isEmpty() ? DocumentPage.newNonce() : nonce, intent))
        .put("operations", intent.operations());
    return tools.call("gram_patch", args, visitor)
        .map(receipt -> {
          String to = Links.doc(path) + (intent.target() == null ? "" : "#" + Links.anchor(intent.target()));
          return new Outcome(303, to, null);
        })
        .recover(e -> e instanceof GramException g && g.code() == ErrorCode.STALE_REVISION
            ? conflict(path, base, form, intent, g)
            : Future.failedFuture(e));
  }

  /** The conflict: what moved since the person's revision, their change, and a way to re-apply it. */
  private Future<Outcome> conflict(String path, int base, Map<String, String> form, Intent intent, GramException g) {
    return Snapshots.read(gram, path).compose(now -> {
      Future<GramDocument> then = base >= 0 && base <= now.rev()
          ? Snapshots.view(gram, now, base, true, "The document was replaced while it was read").map(v -> v.state())
          : Future.succeededFuture(null);
      return then.map(before -> new Outcome(409, null, conflictHtml(now, before, base, form, intent, g.details())));
    });
  }

  static String conflictHtml(DocSnapshot now, GramDocument before, int base, Map<String, String> form,
      Intent intent, JsonObject details) {
    GramDocument state = now.requireState();
    StringBuilder out = new StringBuilder(4096);
    out.append("<section id=\"conflict\" class=\"conflict\" tabindex=\"-1\" aria-labelledby=\"conflict-h\">")
        .append("<h2 id=\"conflict-h\">Your change was not saved: the document changed since you read it</h2><p>")
        .append("You read revision ").append(base).append("; it is now at revision ").append(now.rev());
    JsonArray by = details == null ? null : details.getJsonArray("by");
    if (by != null && !by.isEmpty()) {
      out.append(", changed meanwhile by ");
      for (int i = 0; i < by.size(); i++) {
        out.append(i == 0 ? "" : ", ").append("<span class=\"by\">");
        Html.text(out, String.valueOf(by.getValue(i)));
        out.append("</span>");
      }
    }
    out.append(".</p><p><strong>Your change:</strong> ");
    Html.text(out, intent.what());
    out.append(".</p>");
    if (details != null) {
      out.append("<ul class=\"what\">");
      names(out, "added", "Added", details.getJsonArray("added"), state);
      names(out, "changed", "Changed", details.getJsonArray("changed"), state);
      names(out, "removed", "Removed", details.getJsonArray("removed"), before);
      out.append("</ul>");
    }
    if (intent.target() != null) {
      Entity was = before == null ? null : before.entity(intent.target());
      Entity is = state.entity(intent.target());
      if (is == null) {
        out.append("<p class=\"error\">The record you changed was removed meanwhile; applying your change again ")
            .append("will fail.</p>");
      } else if (was != null && !Objects.equals(was, is)) {
        out.append("<div class=\"table-wrap\"><table class=\"conflict-record\"><caption>");
        Html.text(out, is.title());
        out.append(" when you read it and now</caption><thead><tr><th scope=\"col\">Key</th>")
            .append("<th scope=\"col\">When you read it</th><th scope=\"col\">Now</th></tr></thead><tbody>");
        for (String key : dev.gram.format.StateDiff.changedKeys(was, is)) {
          out.append("<tr><th scope=\"row\">");
          Html.text(out, RecordDetailHtml.fieldName(key));
          out.append("</th><td>");
          Html.text(out, String.join(", ", was.values(key)));
          out.append("</td><td>");
          Html.text(out, String.join(", ", is.values(key)));
          out.append("</td></tr>");
        }
        out.append("</tbody></table></div>");
      }
    }
    out.append("<form class=\"edit-form reapply\" method=\"post\"");
    Html.attr(out, "action", Links.edit(now.path()));
    out.append('>');
    DocumentPage.casFields(out, now, DocumentPage.newNonce());
    for (Map.Entry<String, String> e : form.entrySet()) {
      if (!List.of("rev", "hash", "nonce").contains(e.getKey())) {
        out.append("<input type=\"hidden\"");
        Html.attr(out, "name", e.getKey());
        Html.attr(out, "value", e.getValue());
        out.append('>');
      }
    }
    out.append("<button type=\"submit\">Apply my change to revision ").append(now.rev())
        .append("</button> <a");
    Html.attr(out, "href", Links.doc(now.path()));
    out.append(">Discard it and see the document</a></form></section>");
    return out.toString();
  }

  private static void names(StringBuilder out, String cls, String label, JsonArray ids, GramDocument doc) {
    if (ids == null || ids.isEmpty()) {
      return;
    }
    out.append("<li class=\"").append(cls).append("\">").append(label).append(": ");
    for (int i = 0; i < ids.size(); i++) {
      String id = String.valueOf(ids.getValue(i));
      Entity e = doc == null ? null : "doc".equals(id) ? doc.owner() : doc.entity(id);
      out.append(i == 0 ? "" : ", ");
      Html.text(out, e == null ? id : e.isOwner() ? "the document" : e.title());
    }
    out.append("</li>");
  }
}
