package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramDocument;
import dev.gram.format.RecordDates;
import dev.gram.store.DocSnapshot;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.base.DateSpan;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.Docs;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.RecordFacts;
import dev.gram.tools.support.Scope;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gram_list}: documents, a document's entity ids, or records matching a selection.
 *
 * <ul>
 *   <li>No path, or a folder: {@code {docs: [[path, title, rev]]}}, by path, every document under
 *       the folder (every document the server reaches when there is no path).
 *   <li>A {@code .gram}: {@code {doc, entities: [[id, type]]}} in source order, at the current
 *       revision or at {@code revision} / {@code recorded_at} / {@code effective_at} (then with
 *       {@code at}).
 *   <li>With {@code select}: {@code {docs, records: [[path#id, type, title, status|null,
 *       date?]]}} in the path's scope, filtered by type, status, tag and the date rules of {@link
 *       DateSpan}, sorted by the selected date (undated records last).
 * </ul>
 *
 * <p>Pages hold at most {@code limit} rows (default and maximum 100) and fit the budget; {@code
 * more} is the cursor for the next page. A cursor over a folder is bound to the documents listed
 * (their paths and hashes): any change makes it {@code STALE_CURSOR}. A cursor over one document
 * pins the revision its first page read, so later pages are read at that revision even after new
 * commits (the answer then carries {@code at}); if the document was replaced meanwhile the next
 * page is {@code STALE_READ}.
 */
public final class GramList extends ReadTool {
  static final String INVALID_CURSOR = "Invalid list cursor";
  static final String STALE_CURSOR = "The documents changed since this cursor; list again";
  static final String CHANGED = "The document changed while it was read; read again";

  public GramList(GramContext ctx) {
    super(ctx, "gram_list");
  }

  @Override
  public String description() {
    return "List what the vault holds. Without path: every document as [path, title, rev]; with a "
        + "folder: the documents under it. With the path of a .gram: its entity ids in source order "
        + "as [id, type], now or at a past revision, recorded_at or effective_at time. With select "
        + "{type, status, tag, from, to, date}: the matching records as [path#id, type, title, "
        + "status|null, date?], sorted by that date. Dates: from and to are inclusive, a date-only "
        + "to covers its whole day, YYYY-MM and YYYY cover the month and year; the date is at for "
        + "events, observed for metrics, due for tasks and at otherwise, unless date names another "
        + "field. limit (up to 100) pages; pass more back as cursor.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String path = Inputs.string(args, "path");
    JsonObject select = Inputs.object(args, "select");
    int limit = orDefault(Inputs.integer(args, "limit", 1, Limits.LIST_MAX), Limits.LIST_DEFAULT);
    String cursorText = Inputs.string(args, "cursor");
    JsonObject cursor = cursorText == null ? null : Cursors.decode(name(), cursorText, INVALID_CURSOR);
    VaultPath target = ctx.reader().paths().resolve(path == null ? "" : path);
    if (!target.document() && Selectors.present(args)) {
      throw Inputs.bad("revision, recorded_at and effective_at read one document: give the path of a .gram");
    }
    if (target.document()) {
      return Snapshots.read(ctx, target)
          .compose(s -> openAt(s, args, cursor))
          .compose(v -> select == null ? entities(v, limit, cursor) : selectInDocument(v, select, limit, cursor));
    }
    return Scope.folder(ctx, target)
        .compose(scope -> select == null ? documents(scope, limit, cursor) : selectInFolder(scope, select, limit, cursor, deadline));
  }

  static int orDefault(Integer v, int dflt) {
    return v == null ? dflt : v;
  }

  // ------------------------------------------------------------------ one document

  /** The view a request reads: its selector's revision, or the revision a cursor pinned. */
  private Future<DocView> openAt(DocSnapshot s, JsonObject args, JsonObject cursor) {
    Selectors.Point point = Selectors.point(s, args);
    int rev = point.rev();
    boolean historical = Selectors.present(args);
    if (cursor != null) {
      if (!cursor.containsKey("p")) {
        // A cursor of a folder listing.
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      String p = Cursors.stringField(cursor, "p", INVALID_CURSOR);
      int pinned = Cursors.intField(cursor, "r", INVALID_CURSOR);
      String h = Cursors.stringField(cursor, "h", INVALID_CURSOR);
      if (!p.equals(s.path()) || (historical && rev != pinned)) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      if (!h.equals(Snapshots.revisionHash(s, pinned))) {
        // The document was replaced: send the caller to what it is now.
        throw Snapshots.staleRead(s, CHANGED);
      }
      historical = historical || pinned != s.rev();
      rev = pinned;
    }
    return Snapshots.view(ctx, s, point.pinned(rev), historical, CHANGED);
  }

  private Future<JsonObject> entities(DocView v, int limit, JsonObject cursor) {
    int from = offset(cursor, "e");
    JsonObject answer = new JsonObject().put("doc", v.identity());
    if (v.historical()) {
      answer.put("at", v.at());
    }
    JsonArray rows = new JsonArray();
    answer.put("entities", rows);
    Page page = new Page(answer);
    List<Entity> records = v.state().records();
    int i = from;
    while (i < records.size() && rows.size() < limit) {
      Entity e = records.get(i);
      JsonArray row = new JsonArray().add(e.id()).add(e.type().typeName());
      if (!page.take(row)) {
        break;
      }
      rows.add(row);
      i++;
    }
    if (i < records.size()) {
      answer.put("more", documentCursor("e", v, i, null));
    }
    return Future.succeededFuture(answer);
  }

  private String documentCursor(String mode, DocView v, int offset, String query) {
    JsonObject c = new JsonObject().put("m", mode).put("p", v.path()).put("r", v.rev()).put("h", v.stateHash()).put("o", offset);
    if (query != null) {
      c.put("q", query);
    }
    return Cursors.encode(name(), c);
  }

  private int offset(JsonObject cursor, String mode) {
    if (cursor == null) {
      return 0;
    }
    if (!mode.equals(cursor.getString("m"))) {
      throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
    }
    return Cursors.intField(cursor, "o", INVALID_CURSOR);
  }

  // ------------------------------------------------------------------ documents of a folder

  private Future<JsonObject> documents(Scope scope, int limit, JsonObject cursor) {
    String bound = scopeDigest(scope.docs());
    int from = offset(cursor, "d");
    if (cursor != null) {
      requireScope(cursor, scope, bound);
    }
    JsonArray rows = new JsonArray();
    JsonObject answer = new JsonObject().put("docs", rows);
    Page page = new Page(answer);
    List<DocSnapshot> docs = scope.docs();
    int i = from;
    while (i < docs.size() && rows.size() < limit) {
      DocSnapshot s = docs.get(i);
      JsonArray row = new JsonArray().add(s.path()).add(s.state() == null ? null : s.state().title()).add(s.rev());
      if (!page.take(row)) {
        break;
      }
      rows.add(row);
      i++;
    }
    if (i < docs.size()) {
      answer.put("more", Cursors.encode(name(), new JsonObject().put("m", "d").put("s", scope.label()).put("d", bound).put("o", i)));
    }
    return Future.succeededFuture(answer);
  }

  private static void requireScope(JsonObject cursor, Scope scope, String bound) {
    if (!scope.label().equals(cursor.getString("s")) || !bound.equals(cursor.getString("d"))) {
      throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
    }
  }

  /** What a folder cursor is bound to: every listed document's path and state. */
  static String scopeDigest(List<DocSnapshot> docs) {
    JsonArray a = new JsonArray();
    for (DocSnapshot s : docs) {
      a.add(new JsonArray().add(s.path()).add(s.hash()));
    }
    return JsonText.digest(a);
  }

  // ------------------------------------------------------------------ select

  /** A parsed {@code select}. */
  private record Selection(List<EntityType> types, List<String> statuses, List<String> tags, DateSpan.Filter dates, String digest) {

    static Selection of(JsonObject select) {
      List<EntityType> types = new ArrayList<>();
      for (String w : RecordFacts.words(Inputs.string(select, "type"))) {
        EntityType t = RecordFacts.type(w);
        if (t == null) {
          throw Inputs.bad("select.type: unknown record type " + w + "; use a type name such as task, event, metric or decision");
        }
        types.add(t);
      }
      DateSpan.Filter dates =
          DateSpan.Filter.of(Inputs.string(select, "from"), Inputs.string(select, "to"), Inputs.string(select, "date"));
      return new Selection(
          types,
          RecordFacts.words(Inputs.string(select, "status")),
          RecordFacts.words(Inputs.string(select, "tag")),
          dates,
          JsonText.digest(select));
    }

    boolean matches(Entity e) {
      if (types.isEmpty() ? e.type() == EntityType.RELATION : !types.contains(e.type())) {
        return false;
      }
      if (!statuses.isEmpty() && !RecordFacts.statusIn(e, statuses)) {
        return false;
      }
      if (!tags.isEmpty() && !RecordFacts.hasAnyTag(e, tags)) {
        return false;
      }
      return RecordDates.matches(dates, e);
    }
  }

  /** A matching record, with what it sorts by. */
  private record Match(DocSnapshot snapshot, int index, Entity entity, String date, Instant sortKey) {}

  private static final Comparator<Match> BY_DATE =
      Comparator.comparing((Match m) -> m.sortKey() == null ? Instant.MAX : m.sortKey())
          .thenComparing(m -> m.snapshot().path())
          .thenComparingInt(Match::index);

  private static void collect(DocSnapshot s, GramDocument state, Selection sel, List<Match> out) {
    List<Entity> records = state.records();
    for (int i = 0; i < records.size(); i++) {
      Entity e = records.get(i);
      if (sel.matches(e)) {
        String date = RecordDates.raw(e, sel.dates().field());
        DateSpan span = DateSpan.parse(date);
        out.add(new Match(s, i, e, date, span == null ? null : span.start()));
      }
    }
  }

  private Future<JsonObject> selectInDocument(DocView v, JsonObject select, int limit, JsonObject cursor) {
    Selection sel = Selection.of(select);
    int from = offset(cursor, "s");
    if (cursor != null && !sel.digest().equals(cursor.getString("q"))) {
      throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
    }
    List<Match> matches = new ArrayList<>();
    collect(v.snapshot(), v.state(), sel, matches);
    matches.sort(BY_DATE);
    JsonObject answer = new JsonObject();
    if (v.historical()) {
      answer.put("at", v.at());
    }
    int next = page(answer, matches, from, limit, v);
    if (next < matches.size()) {
      answer.put("more", documentCursor("s", v, next, sel.digest()));
    }
    return Future.succeededFuture(answer);
  }

  private Future<JsonObject> selectInFolder(Scope scope, JsonObject select, int limit, JsonObject cursor, Deadline deadline) {
    Selection sel = Selection.of(select);
    String bound = scopeDigest(scope.docs());
    int from = offset(cursor, "s");
    if (cursor != null) {
      requireScope(cursor, scope, bound);
      if (!sel.digest().equals(cursor.getString("q"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
    }
    return offLoop(
        deadline,
        () -> {
          List<Match> matches = new ArrayList<>();
          for (DocSnapshot s : scope.docs()) {
            deadline.check();
            if (s.state() != null) {
              collect(s, s.state(), sel, matches);
            }
          }
          matches.sort(BY_DATE);
          JsonObject answer = new JsonObject();
          int next = page(answer, matches, from, limit, null);
          if (next < matches.size()) {
            answer.put(
                "more",
                Cursors.encode(
                    name(),
                    new JsonObject().put("m", "s").put("s", scope.label()).put("d", bound).put("q", sel.digest()).put("o", next)));
          }
          return answer;
        });
  }

  /** Fills {@code docs} and {@code records} from {@code from}; returns the index after the page. */
  private static int page(JsonObject answer, List<Match> matches, int from, int limit, DocView single) {
    JsonArray docs = new JsonArray();
    JsonArray rows = new JsonArray();
    answer.put("docs", docs).put("records", rows);
    Page page = new Page(answer);
    Map<String, Boolean> seen = new LinkedHashMap<>();
    int i = from;
    while (i < matches.size() && rows.size() < limit) {
      Match m = matches.get(i);
      Entity e = m.entity();
      JsonArray row =
          new JsonArray()
              .add(m.snapshot().path() + "#" + e.id())
              .add(e.type().typeName())
              .add(e.title())
              .add(e.first("x"));
      if (m.date() != null) {
        row.add(m.date());
      }
      JsonObject identity = single != null ? single.identity() : Docs.identity(m.snapshot());
      boolean newDoc = !seen.containsKey(m.snapshot().path());
      int need = Budget.size(row) + 1 + (newDoc ? Budget.size(identity) + 1 : 0);
      if (!page.takeBytes(need)) {
        if (rows.isEmpty()) {
          throw Budget.tooLarge("record " + e.id());
        }
        break;
      }
      if (newDoc) {
        seen.put(m.snapshot().path(), true);
        docs.add(identity);
      }
      rows.add(row);
      i++;
    }
    return i;
  }
}
