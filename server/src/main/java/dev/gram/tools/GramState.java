package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.EntityJson;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * {@code gram_state}: one document as it was at {@code selector} — a revision, the newest
 * revision recorded at or before {@code recorded_at}, or the newest whose facts were effective at
 * or before {@code effective_at}. Answers {@code {at: {at, eff, rev}, doc, entities: [[id, type,
 * title]], title}}, or with {@code entity} that entity in full ({@code {id, type, fields, links?,
 * blocks?}}, the owner's body included as its {@code rich} block).
 *
 * <p>Big documents page: {@code more} is the cursor for the rest of the entity list, or for the
 * rest of an entity's block text (later pages carry only the {@code blocks} that continue). A
 * cursor is bound to its document, revision and entity ({@code STALE_CURSOR} otherwise); if the
 * document was replaced by another history since, continuing is {@code STALE_READ}, as is a
 * rebuild that the replacement overtook.
 */
public final class GramState extends ReadTool {
  static final String INVALID_CURSOR = "Invalid state cursor";
  static final String STALE_CURSOR = "Cursor belongs to another document or revision";
  static final String REPLACED = "The document was replaced while it was read";

  public GramState(GramContext ctx) {
    super(ctx, "gram_state");
  }

  @Override
  public String description() {
    return "A document as it was: selector {revision} names a revision, {recorded_at} the state "
        + "written by then, {effective_at} the state whose facts had happened by then. Answers "
        + "at {at, eff, rev} (when that revision was recorded and said to be effective), the "
        + "current doc {path, rev, hash}, the title and the entities as [id, type, title]; with "
        + "entity, that entity in full. Large answers continue with more as cursor.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String path = Inputs.string(args, "path");
    JsonObject selector = Inputs.object(args, "selector");
    if (path == null || selector == null) {
      throw Inputs.bad("path and selector are required");
    }
    if (!Selectors.present(selector)) {
      throw Inputs.bad("selector needs one of revision, recorded_at or effective_at");
    }
    String entity = Inputs.string(args, "entity");
    String cursorText = Inputs.string(args, "cursor");
    JsonObject cursor = cursorText == null ? null : Cursors.decode(name(), cursorText, INVALID_CURSOR);
    return Snapshots.read(ctx, path)
        .compose(s -> Snapshots.view(ctx, s, point(s, selector, entity, cursor), true, REPLACED))
        .map(v -> entity == null ? entities(v, cursor) : entity(v, entity, cursor));
  }

  private Selectors.Point point(DocSnapshot s, JsonObject selector, String entity, JsonObject cursor) {
    if (cursor == null) {
      return Selectors.point(s, selector);
    }
    String p = Cursors.stringField(cursor, "p", INVALID_CURSOR);
    int r = Cursors.intField(cursor, "r", INVALID_CURSOR);
    String h = Cursors.stringField(cursor, "h", INVALID_CURSOR);
    String e = cursor.getString("e");
    boolean sameEntity = entity == null ? e == null : entity.equals(e);
    if (!p.equals(s.path()) || !sameEntity) {
      throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
    }
    // Checked before the selector: when the document was replaced by a shorter history, the
    // cursor's revision is gone, and that is a stale read, not a bad argument.
    if (!h.equals(Snapshots.revisionHash(s, r))) {
      throw Snapshots.staleRead(s, REPLACED);
    }
    Selectors.Point point = Selectors.point(s, selector);
    if (r != point.rev()) {
      throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
    }
    return point;
  }

  private JsonObject base(DocView v) {
    return new JsonObject().put("at", v.at()).put("doc", v.identity()).put("title", v.state().title());
  }

  private String cursor(DocView v, String entity, JsonObject position) {
    JsonObject c = position.put("p", v.path()).put("r", v.rev()).put("h", v.stateHash());
    if (entity != null) {
      c.put("e", entity);
    }
    return Cursors.encode(name(), c);
  }

  private JsonObject entities(DocView v, JsonObject cursor) {
    int from = cursor == null ? 0 : Cursors.intField(cursor, "o", INVALID_CURSOR);
    JsonArray rows = new JsonArray();
    JsonObject answer = base(v).put("entities", rows);
    Page page = new Page(answer);
    List<Entity> records = v.state().records();
    int i = from;
    while (i < records.size()) {
      Entity e = records.get(i);
      JsonArray row = new JsonArray().add(e.id()).add(e.type().typeName()).add(e.title());
      if (!page.take(row)) {
        if (rows.isEmpty()) {
          throw Budget.tooLarge("entity " + e.id());
        }
        break;
      }
      rows.add(row);
      i++;
    }
    if (i < records.size()) {
      answer.put("more", cursor(v, null, new JsonObject().put("o", i)));
    }
    return answer;
  }

  private JsonObject entity(DocView v, String id, JsonObject cursor) {
    Entity e = GramGet.require(v, id);
    int block = cursor == null ? 0 : Cursors.intField(cursor, "b", INVALID_CURSOR);
    int offset = cursor == null ? 0 : Cursors.intField(cursor, "c", INVALID_CURSOR);
    JsonObject out = new JsonObject().put("id", e.id()).put("type", e.type().typeName());
    if (cursor == null) {
      out.put("fields", EntityJson.fields(e, null));
      if (!e.links().isEmpty()) {
        out.put("links", EntityJson.links(e));
      }
    }
    JsonObject blocks = new JsonObject();
    out.put("blocks", blocks);
    JsonObject answer = base(v).put("entity", out);
    Page page = new Page(answer);
    if (page.left() < 0) {
      throw Budget.tooLarge("entity " + id);
    }
    List<Block> all = e.blocks();
    if (block > all.size() || (block < all.size() && offset > all.get(block).text().length())) {
      throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
    }
    while (block < all.size()) {
      Block b = all.get(block);
      String text = b.text();
      int overhead = JsonText.size(b.name()) + 6;
      int end = JsonText.cut(text, offset, page.left() - overhead);
      if (end == offset && offset < text.length()) {
        break;
      }
      page.takeBytes(overhead + JsonText.size(text.substring(offset, end)));
      blocks.put(b.name(), text.substring(offset, end));
      if (end < text.length()) {
        offset = end;
        break;
      }
      block++;
      offset = 0;
    }
    if (blocks.isEmpty()) {
      out.remove("blocks");
    }
    if (block < all.size()) {
      answer.put("more", cursor(v, id, new JsonObject().put("b", block).put("c", offset)));
    }
    return answer;
  }
}
