package dev.gram.tools;

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
 * {@code doc}. A revision too large for one answer is paged inside: the answer lists the rows that
 * fit and says how many are left in {@code rows_left}, and {@code more} continues with the rest of
 * that revision (the continuing entry says where it starts in {@code from_row}), so following
 * {@code more} returns every row exactly once, in order.
 *
 * <p>{@code next} is the time to pass as {@code since} next time: the time of the last revision
 * listed (or, when none was, of the newest revision in the scope, or {@code since} itself). When
 * the page is cut between two revisions of the same millisecond, {@code next} is one millisecond
 * earlier, so passing it repeats those revisions rather than missing one. {@code more} continues
 * the page; it is bound to the request and to the last revision listed (and, inside a revision, to
 * the rows already given), which must still be in its document's history ({@code STALE_CURSOR}
 * when the document was replaced or removed).
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
        + "your next visit; more continues a long answer as cursor, also inside a revision too large "
        + "for one answer (rows_left says how many of its rows follow). This is the record a "
        + "resource notification only hints at: after one, or after a dropped subscription, call "
        + "it with since_revision set to the last rev you saw.";
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
      if (cursor.containsKey("o") && (!(cursor.getValue("o") instanceof Integer o) || o < 1)) {
        throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
      }
      if (!request.equals(cursor.getString("q"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
    }
    Instant after = since;
    return Scope.of(ctx, folder, path)
        .compose(scope -> offLoop(deadline, () -> answer(scope, after, sinceText, sinceRevision, limit, request, cursor, deadline)));
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
    int firstRow = 0;
    if (cursor != null) {
      String p = cursor.getString("p");
      int r = cursor.getInteger("r");
      DocSnapshot s = byPath.get(p);
      if (s == null || !cursor.getString("h").equals(Snapshots.revisionHash(s, r))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      Instant t = Instant.ofEpochMilli(cursor.getLong("t"));
      // A cursor with a row offset continues inside revision r; one without starts after it.
      int stop = cursor.containsKey("o") ? 0 : 1;
      while (from < entries.size() && compare(entries.get(from), t, p, r) < stop) {
        from++;
      }
      if (cursor.containsKey("o")) {
        if (from >= entries.size() || compare(entries.get(from), t, p, r) != 0) {
          throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
        }
        firstRow = cursor.getInteger("o");
      }
    }
    JsonArray changes = new JsonArray();
    JsonArray docs = new JsonArray();
    JsonObject answer = new JsonObject().put("changes", changes).put("docs", docs).put("next", "");
    Page page = new Page(answer);
    Set<String> seen = new LinkedHashSet<>();
    int i = from;
    // Rows of entries.get(i) already given when a page ends inside it, else 0.
    int rowsGiven = firstRow;
    while (i < entries.size() && changes.size() < limit) {
      deadline.check();
      Entry e = entries.get(i);
      Rows rows = Rows.of(e);
      JsonObject identity = Docs.identity(e.snapshot());
      boolean newDoc = !seen.contains(e.snapshot().path());
      int docBytes = newDoc ? Budget.size(identity) + 1 : 0;
      JsonObject item = rows.item(rowsGiven, rows.size());
      int end = rows.size();
      if (!page.takeBytes(Budget.size(item) + 1 + docBytes)) {
        if (!changes.isEmpty()) {
          break;
        }
        // Alone on its page and still too large: give the rows that fit, the rest come in more.
        end = rows.fit(rowsGiven, page.left() - docBytes - 1);
        item = rows.item(rowsGiven, end);
        page.takeBytes(Budget.size(item) + 1 + docBytes);
      }
      if (newDoc) {
        seen.add(e.snapshot().path());
        docs.add(identity);
      }
      changes.add(item);
      if (end < rows.size()) {
        rowsGiven = end;
        break;
      }
      rowsGiven = 0;
      i++;
    }
    boolean insideRevision = rowsGiven > 0 && i < entries.size();
    String next;
    if (insideRevision) {
      // Passing next as since must repeat the revision whose rows are still coming.
      next = Times.format(entries.get(i).time().minusMillis(1));
    } else if (i > from) {
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
      Instant visible = ctx.reader().visibleThrough();
      Instant n = Times.parseInstant(next);
      if (n != null && n.isAfter(visible) && (since == null || visible.isAfter(since))) {
        next = Times.format(visible);
      }
    }
    answer.put("next", next);
    if (i < entries.size()) {
      Entry last = insideRevision ? entries.get(i) : entries.get(i - 1);
      JsonObject c =
          new JsonObject()
              .put("q", request)
              .put("t", last.time().toEpochMilli())
              .put("p", last.snapshot().path())
              .put("r", last.revision().rev())
              .put("h", last.revision().shortHash());
      if (insideRevision) {
        c.put("o", rowsGiven);
      }
      answer.put("more", Cursors.encode(name(), c));
    }
    return answer;
  }

  /** The order of an entry against the revision (t, path, rev) a cursor names. */
  private static int compare(Entry e, Instant t, String path, int rev) {
    int c = e.time().compareTo(t);
    if (c != 0) {
      return c;
    }
    c = e.snapshot().path().compareTo(path);
    if (c != 0) {
      return c;
    }
    return Integer.compare(e.revision().rev(), rev);
  }

  /**
   * A revision's rows in the order they are listed (add, then set, then del), so a page can end
   * after any row and the next page can start at the one after it.
   */
  private record Rows(Entry entry, List<String> kinds, List<JsonArray> rows) {
    static Rows of(Entry e) {
      DocSnapshot s = e.snapshot();
      Revision r = e.revision();
      GramDocument now = s.stateAt(r.rev());
      GramDocument before = null;
      List<String> kinds = new ArrayList<>();
      List<JsonArray> rows = new ArrayList<>();
      for (String kind : List.of("add", "set", "del")) {
        for (Revision.Change c : r.changes()) {
          String k = switch (c.kind()) {
            case ADD -> "add";
            case SET -> "set";
            default -> "del";
          };
          if (!k.equals(kind)) {
            continue;
          }
          JsonArray row;
          if (k.equals("add")) {
            Entity ent = now.entity(c.id());
            row = new JsonArray().add(shownId(now, c.id())).add(c.type()).add(ent == null ? c.id() : title(ent));
          } else if (k.equals("set")) {
            Entity ent = now.entity(c.id());
            row = new JsonArray().add(shownId(now, c.id())).add(ent == null ? c.id() : title(ent)).add(new JsonArray(new ArrayList<>(c.keys())));
          } else {
            if (before == null) {
              before = r.rev() == 0 ? now : s.stateAt(r.rev() - 1);
            }
            Entity ent = before.entity(c.id());
            row = new JsonArray().add(c.id()).add(ent == null ? c.id() : title(ent));
          }
          kinds.add(k);
          rows.add(row);
        }
      }
      return new Rows(e, kinds, rows);
    }

    int size() {
      return rows.size();
    }

    /** The entry with rows {@code [from, to)}; a partial one says where it starts and what is left. */
    JsonObject item(int from, int to) {
      DocSnapshot s = entry.snapshot();
      Revision r = entry.revision();
      JsonObject item =
          new JsonObject()
              .put("path", s.path())
              .put("rev", r.rev())
              .put("at", Times.format(r.recordedAt()))
              .put("by", r.by());
      if (r.effectiveAt() != null) {
        item.put("eff", r.effectiveAt());
      }
      for (int i = from; i < to; i++) {
        JsonArray list = item.getJsonArray(kinds.get(i));
        if (list == null) {
          list = new JsonArray();
          item.put(kinds.get(i), list);
        }
        list.add(rows.get(i));
      }
      if (from > 0) {
        item.put("from_row", from);
      }
      if (to < rows.size()) {
        item.put("rows_left", rows.size() - to);
      }
      return item;
    }

    /** The end of the longest run of rows from {@code from} that fits in {@code room} bytes (at least one). */
    int fit(int from, int room) {
      // The partial entry's own keys: the rows' kinds, from_row and rows_left.
      int left = room - Budget.size(item(from, from).put("rows_left", rows.size()).put("from_row", rows.size())) - 3 * 10;
      int end = from;
      while (end < rows.size()) {
        int n = Budget.size(rows.get(end)) + 1;
        if (n > left && end > from) {
          break;
        }
        left -= n;
        end++;
      }
      return end;
    }
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
}
