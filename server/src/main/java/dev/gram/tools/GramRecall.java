package dev.gram.tools;

import dev.gram.base.CompactJson;
import dev.gram.base.ErrorCode;
import dev.gram.base.ResponseBudget;
import dev.gram.gate.Gate;
import dev.gram.base.GramException;
import dev.gram.format.EntityType;
import dev.gram.format.Hashes;
import dev.gram.index.RecallRequest;
import dev.gram.index.RecallResult;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.base.DateSpan;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.Docs;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gram_recall}: search by relevance over every record and body section of the vault and
 * its mounts. The search runs on the index's worker pool; this class reads the arguments and
 * shapes the answer. Like every reading tool it answers {@code E_TIMEOUT} once the server's read
 * deadline has passed, for instance while the index catches up with a burst of writes.
 */
public final class GramRecall extends ReadTool {
  static final String NAME = "gram_recall";
  static final String INVALID_CURSOR = "Invalid recall cursor";
  static final String STALE_CURSOR = "The cursor belongs to another query; ask again without cursor";

  static final int DEFAULT_TOP_K = 10;
  static final int MAX_TOP_K = 100;

  public GramRecall(GramContext ctx) {
    super(ctx, NAME);
  }

  @Override
  public String description() {
    return "Find records and document sections by relevance across the vault and its mounts. "
        + "mode: keyword (words and their other forms, ranked by BM25, title above body, tolerant of typos), "
        + "exact (the words as written, consecutive and in order, any case), "
        + "semantic (by meaning, with an embedding model run in this server), "
        + "hybrid (keyword and semantic rankings fused), "
        + "auto (default: picks one and names it in mode). "
        + "A date, month or year in the query (2026-10-12, 2026-10, 2026) matches record dates in keyword, exact and auto. "
        + "Filters: documents, folder, type (a record type, or document for body sections), "
        + "scope (exact s-tag membership only), from/to on record dates (inclusive; a date-only to includes that day; "
        + "YYYY-MM and YYYY are spans; date names the field, by default event at, metric observed, task due, otherwise at). "
        + "Candidates a filter removes are replaced by further ones, so filters never shorten top_k (default 10); cursor pages on. "
        + "hits: [path#id, type, title, status|null, context?]; a document hit is its owner, titled by the document, "
        + "with context naming the section that matched. When semantic matching was used, every hit carries "
        + "context|null and, last, its cosine similarity to the query: compare it only within one query and one model. "
        + "If semantic search is unavailable, semantic and hybrid answer in keyword mode and say why in fallback. "
        + "partial:true means the index is still catching up with the vault; pendingFiles says how many documents are left.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    RecallRequest req;
    String digest;
    try {
      if (ctx.recall() == null) {
        throw new GramException(ErrorCode.E_INTERNAL, "the search index is not open");
      }
      String query = args.getString("query");
      if (query == null || query.isBlank()) {
        throw new GramException(ErrorCode.E_ARGUMENT, "query must not be empty");
      }
      RecallRequest.Mode mode = RecallRequest.Mode.ofWire(args.getString("mode"));
      Integer k = args.getInteger("top_k");
      int topK = Math.min(MAX_TOP_K, k == null ? DEFAULT_TOP_K : k);
      if (topK < 1) {
        throw new GramException(ErrorCode.E_ARGUMENT, "top_k must be at least 1");
      }
      RecallRequest.Filters filters = approved(filters(args));
      digest = digest(query, mode, filters, topK);
      int offset = 0;
      String cursor = args.getString("cursor");
      if (cursor != null) {
        JsonObject c = Cursors.decode(NAME, cursor, INVALID_CURSOR);
        if (!digest.equals(c.getString("q"))) {
          throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
        }
        offset = Cursors.intField(c, "o", INVALID_CURSOR);
      }
      req = new RecallRequest(query, mode, filters, topK, offset, stop(deadline));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
    return ctx.recall().recall(req).map(r -> answer(req, digest, approved(r)));
  }

  /**
   * For a restricted caller, the search runs only over the documents it may read, so top_k is
   * filled from them: a folder or documents it names must be within its approvals ({@code E_PATH}),
   * and no filter becomes the list of its readable documents. An unrestricted caller's filters
   * are left as they are.
   */
  private RecallRequest.Filters approved(RecallRequest.Filters f) {
    if (ctx.unrestricted()) {
      return f;
    }
    if (f.documents() != null) {
      for (String p : f.documents()) {
        Gate.check(ctx.caller(), p, false);
      }
      return f;
    }
    if (f.folder() != null) {
      Gate.checkFolder(ctx.caller(), f.folder());
    }
    List<String> readable = new ArrayList<>();
    String under = f.folder() == null || f.folder().isEmpty() ? null : f.folder() + "/";
    for (dev.gram.store.DocSnapshot s : ctx.reader().documents()) {
      if (under == null || s.path().startsWith(under)) {
        readable.add(s.path());
      }
    }
    return new RecallRequest.Filters(readable, f.folder(), f.type(), f.scope(), f.dates());
  }

  /** The hits a restricted caller may read: a last check, whatever the index answered. */
  private RecallResult approved(RecallResult r) {
    if (ctx.unrestricted()) {
      return r;
    }
    List<RecallResult.Hit> hits = new ArrayList<>();
    for (RecallResult.Hit h : r.hits()) {
      if (ctx.caller().approvals().mayRead(h.path())) {
        hits.add(h);
      }
    }
    return hits.size() == r.hits().size()
        ? r
        : new RecallResult(hits, r.more(), r.mode(), r.cosine(), r.fallback(), r.pendingFiles(), r.partial(),
            r.unembeddedChunks());
  }

  /** The call's deadline and cancel, checked by the search thread. */
  private static RecallRequest.Stop stop(Deadline deadline) {
    return new RecallRequest.Stop() {
      @Override
      public long leftMillis() {
        return deadline.leftMillis();
      }

      @Override
      public void check() {
        deadline.check();
      }

      @Override
      public boolean stopped() {
        return deadline.stopped();
      }

      @Override
      public boolean background() {
        return deadline.background();
      }
    };
  }

  private RecallRequest.Filters filters(JsonObject args) {
    List<String> documents = null;
    JsonArray docs = args.getJsonArray("documents");
    if (docs != null) {
      documents = new ArrayList<>();
      for (int i = 0; i < docs.size(); i++) {
        documents.add(ctx.reader().paths().document(docs.getString(i)).path());
      }
    }
    String folder = null;
    if (args.containsKey("folder") && args.getValue("folder") != null) {
      folder = ctx.reader().paths().folder(args.getString("folder")).path();
    }
    String type = null;
    String t = args.getString("type");
    if (t != null) {
      if (t.equals("document") || t.equals("doc")) {
        type = EntityType.DOCUMENT.typeName();
      } else {
        EntityType et = EntityType.ofRecordWord(t);
        if (et == null || et == EntityType.RELATION) {
          throw new GramException(
              ErrorCode.E_ARGUMENT,
              "type " + t + " is not a record type; use one of " + typeNames() + ", or document for body sections");
        }
        type = et.typeName();
      }
    }
    String scope = args.getString("scope");
    DateSpan.Filter dates = null;
    if (args.getValue("from") != null || args.getValue("to") != null) {
      dates = DateSpan.Filter.of(args.getString("from"), args.getString("to"), args.getString("date"));
    }
    return new RecallRequest.Filters(documents, folder, type, scope, dates);
  }

  private static String typeNames() {
    List<String> names = new ArrayList<>();
    for (EntityType e : EntityType.profileTypes()) {
      names.add(e.typeName());
    }
    return String.join(" ", names);
  }

  /** What a cursor is bound to: the same query, mode, filters and page size. */
  private static String digest(String query, RecallRequest.Mode mode, RecallRequest.Filters f, int topK) {
    JsonObject d =
        new JsonObject()
            .put("query", query)
            .put("mode", mode.wire())
            .put("k", topK)
            .put("documents", f.documents() == null ? null : new JsonArray(f.documents()))
            .put("folder", f.folder())
            .put("type", f.type())
            .put("scope", f.scope());
    if (f.dates() != null) {
      d.put("from", String.valueOf(f.dates().from())).put("to", String.valueOf(f.dates().to())).put("date", f.dates().field());
    }
    return Hashes.sha256(CompactJson.encode(d)).substring(0, 16);
  }

  private JsonObject answer(RecallRequest req, String digest, RecallResult r) {
    JsonObject extras = new JsonObject();
    if (req.mode() == RecallRequest.Mode.AUTO || r.mode() != req.mode()) {
      extras.put("mode", r.mode().wire());
    }
    if (r.fallback() != null) {
      extras.put("fallback", r.fallback());
    }
    if (r.partial()) {
      extras.put("partial", true).put("pendingFiles", r.pendingFiles());
    }
    if (r.unembeddedChunks() > 0) {
      extras.put("unembeddedChunks", r.unembeddedChunks());
    }
    List<RecallResult.Hit> hits = r.hits();
    JsonObject out = withCursor(build(hits, r.cosine(), extras), req, digest, r.more(), hits.size());
    if (Budget.fits(out)) {
      return out;
    }
    int size = Budget.size(out);
    // Too large: drop hits from the end, counting what each row costs instead of encoding the
    // answer again for every count, and encode once more to be sure.
    JsonArray rows = out.getJsonArray("hits");
    int n = hits.size();
    while (n > 1 && size > ResponseBudget.BYTES - CURSOR_ROOM) {
      n--;
      size -= Budget.size(rows.getJsonArray(n)) + 1;
    }
    while (true) {
      JsonObject shorter = withCursor(build(hits.subList(0, n), r.cosine(), extras), req, digest, true, n);
      if (Budget.fits(shorter)) {
        return shorter;
      }
      if (n <= 1) {
        throw Budget.tooLarge("One hit");
      }
      n--;
    }
  }

  /** Room for the cursor an answer cut short must carry. */
  private static final int CURSOR_ROOM = 160;

  private static JsonObject withCursor(JsonObject out, RecallRequest req, String digest, boolean more, int n) {
    if (more) {
      out.put("cursor", Cursors.encode(NAME, new JsonObject().put("q", digest).put("o", req.offset() + n)));
    }
    return out;
  }

  /** {@link #answer} has measured the answer against the budget already. */
  @Override
  Future<JsonObject> withinBudget(JsonObject answer) {
    return Future.succeededFuture(answer);
  }

  private static JsonObject build(List<RecallResult.Hit> hits, boolean cosine, JsonObject extras) {
    Map<String, JsonObject> docs = new LinkedHashMap<>();
    JsonArray rows = new JsonArray();
    for (RecallResult.Hit h : hits) {
      if (!docs.containsKey(h.path())) {
        docs.put(h.path(), Docs.identity(h.path(), h.rev(), h.hash() == null ? null : h.hash().substring(0, 16)));
      }
      JsonArray row =
          new JsonArray().add(h.path() + "#" + h.entityId()).add(h.type()).add(h.title()).add(h.status());
      if (cosine) {
        row.add(h.context() == null ? null : "section: " + h.context());
        row.add(h.cosine() == null ? null : Math.round(h.cosine() * 10_000) / 10_000.0);
      } else if (h.context() != null) {
        row.add("section: " + h.context());
      }
      rows.add(row);
    }
    JsonObject out = new JsonObject().put("docs", new JsonArray(new ArrayList<>(docs.values()))).put("hits", rows);
    out.mergeIn(extras);
    return out;
  }
}
