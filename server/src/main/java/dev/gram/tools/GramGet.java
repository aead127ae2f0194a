package dev.gram.tools;

import dev.gram.format.Entity;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.EntityJson;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.Limits;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.PlainText;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.ShownAs;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * {@code gram_get}: one entity — {@code {doc, entity: {id, type, fields, links?, blocks?}}} — now
 * or at a past revision, recorded_at or effective_at time (then with {@code at}).
 *
 * <p>{@code fields} selects keys (all when absent); {@code blocks} selects blocks by name (when
 * absent: every block except the owner's body, which gram_read pages); {@code links} is true by
 * default and the key is left out when the entity has none. {@code outline: true} on the owner
 * ({@code doc}) answers {@code {doc, outline: [[node id, node type, shown as, label]]}} instead:
 * every top-level body block, at most {@link Limits#OUTLINE_MAX} rows within the budget. When the
 * rows do not all fit, labels are shortened (then left out) before any row is; a body too long
 * even then lists what fits, counts the rest in {@code omitted} and says in {@code rest} how to
 * read them with gram_read, which pages.
 *
 * <p>A past revision is rebuilt from the snapshot taken at the start of the call; if the document
 * was replaced by another history while that ran, the answer is {@code STALE_READ}.
 */
public final class GramGet extends ReadTool {
  static final String CHANGED = "The document changed while it was read; read again";

  public GramGet(GramContext ctx) {
    super(ctx, "gram_get");
  }

  @Override
  public String description() {
    return "Read one entity of a document: its fields (fields picks keys; all by default), its "
        + "links as [predicate, target] (links:false leaves them out) and its blocks (blocks picks "
        + "names; by default all but the document body). entity doc is the document owner. "
        + "revision, recorded_at or effective_at read it as it was then. outline:true with entity "
        + "doc lists the body's top-level blocks as [node id, node type, shown as, label] for "
        + "editing (labels shorten on a long body; omitted and rest say how to read any blocks "
        + "left out). For several entities at once use gram_context.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String path = Inputs.string(args, "path");
    String entity = Inputs.string(args, "entity");
    if (path == null || entity == null) {
      throw Inputs.bad("path and entity are required");
    }
    List<String> fields = Inputs.strings(args, "fields");
    List<String> blocks = Inputs.strings(args, "blocks");
    boolean links = Inputs.bool(args, "links", true);
    boolean outline = Inputs.bool(args, "outline", false);
    return Snapshots.read(ctx, path)
        .compose(s -> Snapshots.view(ctx, s, Selectors.point(s, args), Selectors.present(args), CHANGED))
        .map(v -> outline ? outline(v, entity) : entity(v, entity, fields, blocks, links));
  }

  private JsonObject answer(DocView v) {
    JsonObject a = new JsonObject().put("doc", v.identity());
    if (v.historical()) {
      a.put("at", v.at());
    }
    return a;
  }

  static Entity require(DocView v, String id) {
    Entity e = EntityJson.lookup(v.state(), id);
    if (e == null) {
      throw Inputs.bad(
          "No entity " + id + " in " + v.path() + (v.historical() ? " at revision " + v.rev() : "")
              + " (gram_list with the path lists its ids; doc is the owner)");
    }
    return e;
  }

  private JsonObject entity(DocView v, String id, List<String> fields, List<String> blocks, boolean links) {
    Entity e = require(v, id);
    JsonObject out = new JsonObject().put("id", e.id()).put("type", e.type().typeName());
    out.put("fields", EntityJson.fields(e, fields));
    if (links && !e.links().isEmpty()) {
      out.put("links", EntityJson.links(e));
    }
    JsonObject b = EntityJson.blocks(e, blocks);
    if (!b.isEmpty()) {
      out.put("blocks", b);
    }
    JsonObject a = answer(v).put("entity", out);
    if (!Budget.fits(a)) {
      throw Budget.tooLarge("entity " + id);
    }
    return a;
  }

  /** Label lengths tried in turn until every row fits: the full label, then shorter ones, then none. */
  private static final int[] LABEL_CHARS = {Integer.MAX_VALUE, 40, 16, 0};

  private JsonObject outline(DocView v, String id) {
    Entity e = require(v, id);
    if (!e.isOwner()) {
      throw Inputs.bad("outline lists the document body: ask it of entity doc");
    }
    BodyRefs refs = BodyRefs.in(v.state(), ctx.reader());
    List<BodyNode> nodes = Body.parse(v.state().body()).nodes();
    JsonObject a = null;
    int shown = 0;
    for (int chars : LABEL_CHARS) {
      JsonArray rows = new JsonArray();
      a = answer(v).put("outline", rows);
      // Room for the hint below when rows are still left out.
      Page page = new Page(a.copy().put("omitted", nodes.size()).put("rest", restHint(v, nodes, 0)));
      shown = 0;
      while (shown < nodes.size() && shown < Limits.OUTLINE_MAX) {
        BodyNode n = nodes.get(shown);
        String label = ShownAs.label(n, refs);
        if (label.length() > chars) {
          label = chars == 0 ? "" : PlainText.cut(label, chars);
        }
        JsonArray row = new JsonArray().add(n.id()).add(n.type().wire()).add(ShownAs.of(n, refs)).add(label);
        if (!page.take(row)) {
          break;
        }
        rows.add(row);
        shown++;
      }
      if (shown == nodes.size()) {
        return a;
      }
    }
    a.put("omitted", nodes.size() - shown);
    a.put("rest", restHint(v, nodes, shown));
    return a;
  }

  /**
   * How to read the blocks an outline left out: gram_read of the section that holds the first of
   * them, then the sections after it, page by page.
   */
  private static String restHint(DocView v, List<BodyNode> nodes, int firstLeftOut) {
    String heading = null;
    for (int i = Math.min(firstLeftOut, nodes.size() - 1); i >= 0; i--) {
      if (nodes.get(i).type() == dev.gram.format.body.NodeType.HEADING) {
        heading = nodes.get(i).id();
        break;
      }
    }
    String from = firstLeftOut < nodes.size() ? nodes.get(firstLeftOut).id() : "";
    return "blocks from " + from + " on: gram_read {path: " + v.path() + ", section: "
        + (heading == null ? "the first row of its outline" : heading)
        + "} reads them; gram_read without section pages the outline of every section";
  }
}
