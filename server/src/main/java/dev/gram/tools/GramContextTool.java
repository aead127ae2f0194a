package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.store.DocSnapshot;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.EntityJson;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.PlainText;
import dev.gram.tools.support.RecordFacts;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gram_context}, the tool. (Named {@code GramContextTool} because {@link GramContext} is
 * the record of services every tool is built on.)
 *
 * <p>Reads many {@code {path, entity}} in one call, each now or at its own revision / recorded_at
 * / effective_at (then with {@code at}): {@code {docs, items: [{id, type, fields, links?, text?,
 * implemented?, at?, path?}]}}. {@code fields} defaults to {@link #DEFAULT_FIELDS}; links are left
 * out when there are none; {@code text} is plain text bounded to {@link
 * Limits#CONTEXT_TEXT_CHARS} characters — the owner's body with placements and mentions read as
 * the records they name, and a record's blocks as {@code name: text}; a decision that an event of
 * its document implements carries {@code implemented}, the date on the earliest such event. Items
 * carry {@code path} when the request spans several documents. An entity or document that cannot
 * be read becomes an item with {@code error} instead of failing the call.
 *
 * <p>Limits: at most {@link Limits#CONTEXT_MAX_IDS} ids ({@code E_ARGUMENT}) from at most {@link
 * Limits#CONTEXT_MAX_DOCUMENTS} documents ({@code E_TOO_MANY_DOCUMENTS}). When the budget is
 * reached, {@code more} is the cursor for the remaining ids; it is bound to the request's ids and
 * fields.
 */
public final class GramContextTool extends ReadTool {
  static final String INVALID_CURSOR = "Invalid context cursor";
  static final String OTHER_REQUEST = "The cursor belongs to another request; ask again without cursor";
  static final String CHANGED = "The document changed while it was read; read again";

  static final List<String> DEFAULT_FIELDS =
      List.of("t", "d", "x", "p", "owner", "tag", "due", "at", "value", "unit", "source", "ref");

  public GramContextTool(GramContext ctx) {
    super(ctx, "gram_context");
  }

  @Override
  public String description() {
    return "Read many entities in one call, each {path, entity} (optionally at its own revision, "
        + "recorded_at or effective_at): fields (by default t d x p owner tag due at value unit "
        + "source ref, or the keys in fields), links as [predicate, target], and bounded plain "
        + "text — the document body with placed and mentioned records spelled out, a record's "
        + "blocks as name: text. A decision that an event of its document implements adds "
        + "implemented, that event's date. Up to " + Limits.CONTEXT_MAX_IDS + " ids from "
        + Limits.CONTEXT_MAX_DOCUMENTS + " documents; when the answer is full, pass more as cursor. "
        + "Use it instead of repeated gram_get.";
  }

  /** One requested id. */
  private record Want(VaultPath path, String entity, JsonObject selector) {}

  /** An answered id, and the identity of the document it was read from (none for an error). */
  private record Item(JsonObject json, JsonObject identity) {}

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    JsonArray ids = Inputs.array(args, "ids");
    if (ids == null || ids.isEmpty()) {
      throw Inputs.bad("ids must name at least one {path, entity}");
    }
    if (ids.size() > Limits.CONTEXT_MAX_IDS) {
      throw Inputs.bad("ids: at most " + Limits.CONTEXT_MAX_IDS + " per call, not " + ids.size());
    }
    List<String> fields = Inputs.strings(args, "fields");
    List<Want> wants = new ArrayList<>();
    Set<String> paths = new LinkedHashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      if (!(ids.getValue(i) instanceof JsonObject o)) {
        throw Inputs.bad("ids[" + i + "] must be {path, entity}");
      }
      String p = Inputs.string(o, "path");
      String e = Inputs.string(o, "entity");
      if (p == null || e == null) {
        throw Inputs.bad("ids[" + i + "] needs path and entity");
      }
      VaultPath vp = ctx.reader().paths().document(p);
      JsonObject selector = new JsonObject();
      for (String k : List.of("revision", "recorded_at", "effective_at")) {
        if (o.getValue(k) != null) {
          selector.put(k, o.getValue(k));
        }
      }
      wants.add(new Want(vp, e, selector));
      paths.add(vp.path());
    }
    if (paths.size() > Limits.CONTEXT_MAX_DOCUMENTS) {
      throw Limits.tooManyDocuments(name(), Limits.CONTEXT_MAX_DOCUMENTS, paths.size(), "split the ids over several calls");
    }
    String bound = JsonText.digest(new JsonObject().put("ids", ids).put("fields", fields == null ? null : new JsonArray(fields)));
    int from = 0;
    String cursorText = Inputs.string(args, "cursor");
    if (cursorText != null) {
      JsonObject c = Cursors.decode(name(), cursorText, INVALID_CURSOR);
      from = Cursors.intField(c, "o", INVALID_CURSOR);
      if (!bound.equals(c.getString("q"))) {
        throw new GramException(ErrorCode.STALE_CURSOR, OTHER_REQUEST);
      }
      if (from >= wants.size()) {
        throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
      }
    }
    boolean manyDocs = paths.size() > 1;
    List<Want> rest = wants.subList(from, wants.size());
    // One snapshot per document for the whole call.
    Map<String, Future<DocSnapshot>> snapshots = new LinkedHashMap<>();
    for (Want w : rest) {
      snapshots.computeIfAbsent(w.path().path(), k -> Snapshots.read(ctx, w.path()));
    }
    List<Future<Item>> items = new ArrayList<>();
    for (Want w : rest) {
      items.add(item(w, snapshots.get(w.path().path()), fields, manyDocs));
    }
    int start = from;
    return Future.join(items).transform(ignored -> Future.succeededFuture(page(items, rest, start, bound)));
  }

  /** One item, or an item with {@code error} when its document or entity cannot be read. */
  private Future<Item> item(Want w, Future<DocSnapshot> snapshot, List<String> fields, boolean manyDocs) {
    Future<Item> f =
        snapshot
            .compose(s -> Snapshots.view(ctx, s, Selectors.point(s, w.selector()), !w.selector().isEmpty(), CHANGED))
            .map(v -> new Item(render(v, w, fields, manyDocs), v.identity()));
    return f.recover(
        err -> {
          if (!(err instanceof GramException te)) {
            return Future.failedFuture(err);
          }
          JsonObject item = new JsonObject().put("id", w.entity());
          if (manyDocs) {
            item.put("path", w.path().path());
          }
          item.put("error", new JsonObject().put("code", te.code().name()).put("message", te.getMessage()));
          return Future.succeededFuture(new Item(item, null));
        });
  }

  private JsonObject render(DocView v, Want w, List<String> fields, boolean manyDocs) {
    Entity e = GramGet.require(v, w.entity());
    JsonObject item = new JsonObject().put("id", e.id()).put("type", e.type().typeName());
    if (manyDocs) {
      item.put("path", v.path());
    }
    item.put("fields", EntityJson.fields(e, fields == null ? DEFAULT_FIELDS : fields));
    if (!e.links().isEmpty()) {
      item.put("links", EntityJson.links(e));
    }
    BodyRefs refs = BodyRefs.in(v.state(), ctx.reader());
    String text = PlainText.of(e, v.state(), refs, Limits.CONTEXT_TEXT_CHARS);
    if (!text.isEmpty()) {
      item.put("text", text);
    }
    if (e.type() == EntityType.DECISION) {
      String implemented = RecordFacts.implementedDates(v.state()).get(e.id());
      if (implemented != null) {
        item.put("implemented", implemented);
      }
    }
    if (v.historical()) {
      item.put("at", v.at());
    }
    return item;
  }

  private JsonObject page(List<Future<Item>> items, List<Want> rest, int from, String bound) {
    JsonArray docs = new JsonArray();
    JsonArray out = new JsonArray();
    JsonObject answer = new JsonObject().put("docs", docs).put("items", out);
    Page page = new Page(answer);
    Set<String> seen = new LinkedHashSet<>();
    int i = 0;
    for (; i < items.size(); i++) {
      Future<Item> f = items.get(i);
      if (f.failed()) {
        throw f.cause() instanceof RuntimeException re ? re : new IllegalStateException(f.cause());
      }
      JsonObject item = f.result().json();
      JsonObject identity = f.result().identity();
      boolean newDoc = identity != null && !seen.contains(identity.getString("path"));
      int need = Budget.size(item) + 1 + (newDoc ? Budget.size(identity) + 1 : 0);
      if (!page.takeBytes(need)) {
        if (out.isEmpty()) {
          throw Budget.tooLarge("entity " + rest.get(i).entity());
        }
        break;
      }
      if (newDoc) {
        seen.add(identity.getString("path"));
        docs.add(identity);
      }
      out.add(item);
    }
    if (i < items.size()) {
      answer.put("more", Cursors.encode(name(), new JsonObject().put("q", bound).put("o", from + i)));
    }
    return answer;
  }
}
