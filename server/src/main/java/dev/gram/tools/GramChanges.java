package dev.gram.tools;

import dev.gram.async.Async;
import dev.gram.base.DateSpan;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.Docs;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.Scope;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gram_changes}: the revisions recorded after {@code since} (an ISO time, exclusive; a
 * date alone — day, month or year — means from its start) in a folder, a document or the whole
 * vault, or after {@code since_revision} in one document, oldest first: {@code {changes: [{path, rev, at, by, eff?, add?, set?, del?}], docs, next, more?}}.
 * {@code add} rows are {@code [id, type, title]}, {@code set} rows {@code [id, title, changed
 * keys]} and {@code del} rows {@code [id, title]} (the title it had before); the document owner is
 * {@code doc}. A revision too large for one answer lists what fits and counts the rest in {@code
 * omitted}.
 *
 * <p>{@code next} is the time to pass as {@code since} next time: the time of the last revision
 * listed (or, when none was, of the newest revision in the scope, or {@code since} itself). When
 * the page is cut between two revisions of the same millisecond, {@code next} is one millisecond
 * earlier, so passing it repeats those revisions rather than missing one. {@code more} continues
 * the page; it is bound to the request and to the last revision listed, which must still be in its
 * document's history ({@code STALE_CURSOR} when the document was replaced or removed).
 */
public final class GramChanges extends ReadTool {
  static final String INVALID_CURSOR = "Invalid changes cursor";
  static final String STALE_CURSOR = "The documents changed since this cursor; ask again without cursor";

  public GramChanges(GramContext ctx) {
    super(ctx, "gram_changes");
  }

  @Override
  public String description() {
    return "What changed after since (an ISO time, exclusive; a date alone means from its start) "
        + "in a folder, a document (path) or the whole vault, or after since_revision in one "
        + "document: each revision, oldest first (up to limit), "
        + "with its path, rev, time, author and add [id, type, title], set [id, title, changed "
        + "keys], del [id, title]; the document owner is doc. Keep next and pass it as since on "
        + "your next visit; more continues a long answer as cursor.";
  }

  /** One revision of one document, as listed. */
  private record Entry(DocSnapshot snapshot, Revision revision) {
    Instant time() {
      return revision.recordedAt();
    }
  }

  private static final Comparator<Entry> ORDER =
      Comparator.comparing(Entry::time)
          .thenComparing(e -> e.snapshot().path())
          .thenComparingInt(e -> e.revision().rev());

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String folder = Inputs.string(args, "folder");
    String path = Inputs.string(args, "path");
    Inputs.notBoth(args, "since", "since_revision");
    String sinceText = Inputs.string(args, "since");
    Instant since = sinceText == null ? null : Selectors.time(sinceText, "since");
    if (sinceText != null && !sinceText.contains("T")) {
      // A day, month or year given as since means after its start, not after its end.
      since = dev.gram.base.DateSpan.parse(sinceText).start().minusMillis(1);
    }
    Integer sinceRevision = Inputs.integer(args, "since_revision", 0, Integer.MAX_VALUE);
    if (sinceRevision != null && path == null) {
      throw Inputs.bad("since_revision counts revisions of one document: give path");
    }
    int limit = GramList.orDefault(Inputs.integer(args, "limit", 1, Limits.CHANGES_MAX), Limits.CHANGES_DEFAULT);
    String request =
        JsonText.digest(
            new JsonObject().put("folder", folder).put("path", path).put("since", sinceText).put("since_revision", sinceRevision));
    String cursorText = Inputs.string(args, "cursor");
    JsonObject cursor = cursorText == null ? null : Cursors.decode(name(), cursorText, INVALID_CURSOR);
    if (cursor != null) {
      Cursors.stringField(cursor, "p", INVALID_CURSOR);
      Cursors.intField(cursor, "r", INVALID_CURSOR);
      Cursors.stringField(cursor, "h", INVALID_CURSOR);
      if (!(cursor.getValue("t") instanceof Number)) {
        throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
      }
      if (!request.equals(cursor.getString("q"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
    }
    Instant after = since;
    return Scope.of(ctx, folder, path)
        .compose(scope -> Async.run(ctx.vault().io(), () -> answer(scope, after, sinceText, sinceRevision, limit, request, cursor, deadline)));
  }

  private JsonObject answer(
      Scope scope, Instant since, String sinceText, Integer sinceRevision, int limit, String request,
      JsonObject cursor, Deadline deadline) {
    List<Entry> entries = new ArrayList<>();
    Instant newest = null;
    Map<String, DocSnapshot> byPath = new HashMap<>();
    for (DocSnapshot s : scope.docs()) {
      deadline.check();
      byPath.put(s.path(), s);
      if (s.history() == null) {
        if (scope.single()) {
          s.requireHistory();
        }
        continue;
      }
      List<Revision> revs = s.history().revisions();
      Instant last = revs.get(revs.size() - 1).recordedAt();
      newest = newest == null || last.isAfter(newest) ? last : newest;
      for (int i = revs.size() - 1; i >= 0; i--) {
        Revision r = revs.get(i);
        boolean wanted = sinceRevision != null ? r.rev() > sinceRevision : since == null || r.recordedAt().isAfter(since);
        if (!wanted) {
          // Revisions are recorded in order: nothing older can be wanted either.
          break;
        }
        entries.add(new Entry(s, r));
      }
    }
    entries.sort(ORDER);
    int from = 0;
    if (cursor != null) {
      String p = cursor.getString("p");
      int r = cursor.getInteger("r");
      DocSnapshot s = byPath.get(p);
      if (s == null || !cursor.getString("h").equals(Snapshots.revisionHash(s, r))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      Instant t = Instant.ofEpochMilli(cursor.getLong("t"));
      while (from < entries.size() && !isAfter(entries.get(from), t, p, r)) {
        from++;
      }
    }
    JsonArray changes = new JsonArray();
    JsonArray docs = new JsonArray();
    JsonObject answer = new JsonObject().put("changes", changes).put("docs", docs).put("next", "");
    Page page = new Page(answer);
    Set<String> seen = new LinkedHashSet<>();
    int i = from;
    while (i < entries.size() && changes.size() < limit) {
      deadline.check();
      Entry e = entries.get(i);
      JsonObject item = item(e);
      JsonObject identity = Docs.identity(e.snapshot());
      boolean newDoc = !seen.contains(e.snapshot().path());
      int docBytes = newDoc ? Budget.size(identity) + 1 : 0;
      if (!page.takeBytes(Budget.size(item) + 1 + docBytes)) {
        if (!changes.isEmpty()) {
          break;
        }
        item = shrink(item, page.left() - docBytes - 1);
        page.takeBytes(Budget.size(item) + 1 + docBytes);
      }
      if (newDoc) {
        seen.add(e.snapshot().path());
        docs.add(identity);
      }
      changes.add(item);
      i++;
    }
    String next;
    if (i > from) {
      Entry last = entries.get(i - 1);
      Instant t = last.time();
      if (i < entries.size() && !entries.get(i).time().isAfter(t)) {
        t = t.minusMillis(1);
      }
      next = Times.format(t);
    } else if (since != null && (newest == null || !newest.isAfter(since))) {
      next = sinceText.contains("T") ? Times.format(since) : Times.format(since.plusMillis(1));
    } else {
      next = newest == null ? null : Times.format(newest);
    }
    if (next != null) {
      // Never past what every reader can already see (see Vault#visibleThrough).
      Instant visible = ctx.vault().visibleThrough();
      Instant n = Times.parseInstant(next);
      if (n != null && n.isAfter(visible) && (since == null || visible.isAfter(since))) {
        next = Times.format(visible);
      }
    }
    answer.put("next", next);
    if (i < entries.size()) {
      Entry last = entries.get(i - 1);
      answer.put(
          "more",
          Cursors.encode(
              name(),
              new JsonObject()
                  .put("q", request)
                  .put("t", last.time().toEpochMilli())
                  .put("p", last.snapshot().path())
                  .put("r", last.revision().rev())
                  .put("h", last.revision().shortHash())));
    }
    return answer;
  }

  private static boolean isAfter(Entry e, Instant t, String path, int rev) {
    int c = e.time().compareTo(t);
    if (c != 0) {
      return c > 0;
    }
    c = e.snapshot().path().compareTo(path);
    if (c != 0) {
      return c > 0;
    }
    return e.revision().rev() > rev;
  }

  private static JsonObject item(Entry e) {
    DocSnapshot s = e.snapshot();
    Revision r = e.revision();
    GramDocument now = s.stateAt(r.rev());
    GramDocument before = null;
    JsonArray add = new JsonArray();
    JsonArray set = new JsonArray();
    JsonArray del = new JsonArray();
    for (Revision.Change c : r.changes()) {
      switch (c.kind()) {
        case ADD: {
          Entity ent = now.entity(c.id());
          add.add(new JsonArray().add(shownId(now, c.id())).add(c.type()).add(ent == null ? c.id() : title(ent)));
          break;
        }
        case SET: {
          Entity ent = now.entity(c.id());
          set.add(new JsonArray().add(shownId(now, c.id())).add(ent == null ? c.id() : title(ent)).add(new JsonArray(new ArrayList<>(c.keys()))));
          break;
        }
        default: {
          if (before == null) {
            before = r.rev() == 0 ? now : s.stateAt(r.rev() - 1);
          }
          Entity ent = before.entity(c.id());
          del.add(new JsonArray().add(c.id()).add(ent == null ? c.id() : title(ent)));
        }
      }
    }
    JsonObject item =
        new JsonObject()
            .put("path", s.path())
            .put("rev", r.rev())
            .put("at", Times.format(r.recordedAt()))
            .put("by", r.by());
    if (r.effectiveAt() != null) {
      item.put("eff", r.effectiveAt());
    }
    if (!add.isEmpty()) {
      item.put("add", add);
    }
    if (!set.isEmpty()) {
      item.put("set", set);
    }
    if (!del.isEmpty()) {
      item.put("del", del);
    }
    return item;
  }

  private static String shownId(GramDocument doc, String id) {
    return id.equals(doc.id()) ? "doc" : id;
  }

  private static String title(Entity e) {
    if (e.isOwner()) {
      String t = e.first("t");
      return t == null ? "" : t;
    }
    return e.title();
  }

  /** A revision's rows cut to {@code room} bytes; {@code omitted} counts the rows left out. */
  private static JsonObject shrink(JsonObject item, int room) {
    JsonObject out = item.copy();
    List<JsonArray> all = new ArrayList<>();
    for (String kind : List.of("add", "set", "del")) {
      JsonArray rows = (JsonArray) out.remove(kind);
      all.add(rows == null ? new JsonArray() : rows);
    }
    int total = all.get(0).size() + all.get(1).size() + all.get(2).size();
    // The item without rows, with room for every kind's key and the count of rows left out.
    int left = room - Budget.size(out.copy().put("omitted", total)) - 3 * 10;
    int kept = 0;
    List<String> kinds = List.of("add", "set", "del");
    for (int k = 0; k < 3; k++) {
      JsonArray keptRows = new JsonArray();
      for (Object row : all.get(k)) {
        int n = Budget.size(row) + 1;
        if (n > left) {
          left = -1;
          break;
        }
        left -= n;
        keptRows.add(row);
      }
      if (!keptRows.isEmpty()) {
        out.put(kinds.get(k), keptRows);
        kept += keptRows.size();
      }
    }
    if (kept < total) {
      out.put("omitted", total - kept);
    }
    return out;
  }
}
