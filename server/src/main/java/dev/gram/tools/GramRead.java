package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.support.BodyRefs;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.DocView;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.Inputs;
import dev.gram.tools.support.JsonText;
import dev.gram.tools.support.Page;
import dev.gram.tools.support.PlainText;
import dev.gram.tools.support.SectionMd;
import dev.gram.tools.support.Selectors;
import dev.gram.tools.support.Snapshots;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gram_read}: a document's body a section at a time.
 *
 * <p>Without {@code section}: {@code {doc, title, outline: [[level, heading, node id, chars]],
 * more?}}, one row per heading, {@code chars} being the length of the Markdown that reading the
 * section returns (subsections included). Blocks before the first heading form a section of their
 * own, listed first as level 0 with an empty heading and the first block's id. An outline longer
 * than one answer continues in {@code more}, bound like a section's cursor.
 *
 * <p>{@code section} names a section by its heading's node id, or by its heading as written in md
 * or as a person reads it (inline markup removed: {@code ### `gram_recall`} is found by {@code
 * gram_recall}), ignoring case and outer spaces; the first match in document order wins.
 *
 * <p>With {@code section} (a heading's text or node id): {@code {doc, section, level, md,
 * more?}}, the Markdown of {@link SectionMd} — text as written, placed records as record lines,
 * collections as raw-type headings with id-bearing bullets, images as image references. A section
 * longer than the budget is cut at a blank line where possible; {@code more} is the cursor for
 * the rest, bound to the document, the revision read and the section. Continuing after new
 * commits still reads that revision (the answer then carries {@code at}); a cursor for another
 * document, section or revision — or for a revision the document no longer has because it was
 * replaced — is {@code STALE_CURSOR}. Reads at a revision, recorded_at or effective_at carry
 * {@code at}.
 */
public final class GramRead extends ReadTool {
  static final String INVALID_CURSOR = "Invalid section cursor";
  static final String STALE_CURSOR = "The cursor belongs to another document, revision or section";
  static final String CHANGED = "The document changed while it was read; read again";

  public GramRead(GramContext ctx) {
    super(ctx, "gram_read");
  }

  @Override
  public String description() {
    return "Read a document's body one section at a time. Without section: the outline as "
        + "[level, heading, node id, chars] (a long outline returns more: pass it as cursor). With "
        + "section (a heading as you read it or as written in md, or its node id; the first match "
        + "in document order): {doc, "
        + "section, level, md}, where a placed record is one line with its id, raw type, status "
        + "and priority, at/due/first value and unit/observed (days cut to YYYY-MM-DD; a decision "
        + "without at shows when it was implemented) and replaces links, its d on the next line; "
        + "collections are headings per type with one bullet per record id; images are Markdown "
        + "image references. Owner, tags, sources, refs and other links are in gram_context. A "
        + "long section returns more: pass it as cursor. revision, recorded_at or effective_at read "
        + "the past and add at.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String path = Inputs.string(args, "path");
    if (path == null) {
      throw Inputs.bad("path is required");
    }
    String section = Inputs.string(args, "section");
    String cursorText = Inputs.string(args, "cursor");
    JsonObject cursor = cursorText == null ? null : Cursors.decode(name(), cursorText, INVALID_CURSOR);
    return Snapshots.read(ctx, path)
        .compose(s -> open(s, args, cursor))
        .map(
            v -> {
              Body body = Body.parse(v.state().body());
              BodyRefs refs = BodyRefs.in(v.state(), ctx.reader());
              if (section == null && cursor == null) {
                return outline(v, body, refs, 0);
              }
              if (cursor != null && cursor.containsKey("ol")) {
                if (section != null) {
                  throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
                }
                return outline(v, body, refs, Cursors.intField(cursor, "ol", INVALID_CURSOR));
              }
              return section(v, body, refs, section, cursor);
            });
  }

  private Future<DocView> open(DocSnapshot s, JsonObject args, JsonObject cursor) {
    Selectors.Point point = Selectors.point(s, args);
    int rev = point.rev();
    boolean historical = Selectors.present(args);
    if (cursor != null) {
      String p = Cursors.stringField(cursor, "p", INVALID_CURSOR);
      int pinned = Cursors.intField(cursor, "r", INVALID_CURSOR);
      String h = Cursors.stringField(cursor, "h", INVALID_CURSOR);
      if (!p.equals(s.path()) || (historical && rev != pinned) || !h.equals(Snapshots.revisionHash(s, pinned))) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
      historical = historical || pinned != s.rev();
      rev = pinned;
    }
    return Snapshots.view(ctx, s, point.pinned(rev), historical, CHANGED);
  }

  /** One readable section: its heading (null for the blocks before the first heading). */
  private record Part(BodyNode heading, String id, String title, int level, List<BodyNode> nodes) {}

  private static List<Part> parts(Body body) {
    List<Part> out = new ArrayList<>();
    List<BodyNode> nodes = body.nodes();
    int first = 0;
    while (first < nodes.size() && nodes.get(first).type() != NodeType.HEADING) {
      first++;
    }
    if (first > 0) {
      out.add(new Part(null, nodes.get(0).id(), "", 0, nodes.subList(0, first)));
    }
    for (int i = first; i < nodes.size(); i++) {
      BodyNode n = nodes.get(i);
      if (n.type() == NodeType.HEADING) {
        int end = i + 1;
        while (end < nodes.size() && !(nodes.get(end).type() == NodeType.HEADING && nodes.get(end).level() <= n.level())) {
          end++;
        }
        out.add(new Part(n, n.id(), n.text(), n.level(), nodes.subList(i, end)));
      }
    }
    return out;
  }

  /**
   * The first section, in document order, whose node id is {@code wanted} or whose heading reads
   * as {@code wanted}: its Markdown source or its plain text (inline markup such as code spans,
   * emphasis and links removed), ignoring case and outer spaces. A person asks for the heading
   * they read, an agent may copy its source; both find it.
   */
  static Part find(List<Part> parts, String wanted) {
    String w = wanted.strip();
    String plainWanted = PlainText.inline(w);
    for (Part p : parts) {
      if (p.id().equals(wanted)) {
        return p;
      }
      if (p.heading() != null
          && (p.title().strip().equalsIgnoreCase(w) || PlainText.inline(p.title()).equalsIgnoreCase(plainWanted))) {
        return p;
      }
    }
    return null;
  }

  private JsonObject base(DocView v) {
    JsonObject a = new JsonObject().put("doc", v.identity());
    if (v.historical()) {
      a.put("at", v.at());
    }
    return a;
  }

  /** The outline from its {@code from}th row; {@code more} pages the rest, bound to the revision read. */
  private JsonObject outline(DocView v, Body body, BodyRefs refs, int from) {
    JsonArray rows = new JsonArray();
    JsonObject a = base(v).put("title", v.state().title()).put("outline", rows);
    Page page = new Page(a);
    List<Part> parts = parts(body);
    if (from < 0 || from > parts.size()) {
      throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
    }
    int i = from;
    for (; i < parts.size(); i++) {
      Part p = parts.get(i);
      int chars = SectionMd.render(p.nodes(), p.level(), refs).length();
      JsonArray row = new JsonArray().add(p.level()).add(p.title()).add(p.id()).add(chars);
      if (!page.take(row)) {
        break;
      }
      rows.add(row);
    }
    if (i < parts.size()) {
      a.put(
          "more",
          Cursors.encode(
              name(),
              new JsonObject().put("p", v.path()).put("r", v.rev()).put("h", v.stateHash()).put("ol", i)));
    }
    return a;
  }

  private JsonObject section(DocView v, Body body, BodyRefs refs, String wanted, JsonObject cursor) {
    List<Part> parts = parts(body);
    Part part;
    int offset = 0;
    if (cursor != null) {
      String s = Cursors.stringField(cursor, "s", INVALID_CURSOR);
      offset = Cursors.intField(cursor, "o", INVALID_CURSOR);
      part = find(parts, s);
      if (part == null || (wanted != null && find(parts, wanted) != part)) {
        throw new GramException(ErrorCode.STALE_CURSOR, STALE_CURSOR);
      }
    } else {
      part = find(parts, wanted);
      if (part == null) {
        throw Inputs.bad(
            "No section " + wanted + " in " + v.path() + "; read without section for the outline");
      }
    }
    String md = SectionMd.render(part.nodes(), part.level(), refs);
    if (offset > md.length()) {
      throw new GramException(ErrorCode.E_CURSOR, INVALID_CURSOR);
    }
    JsonObject a = base(v).put("section", part.title()).put("level", part.level()).put("md", "");
    Page page = new Page(a);
    int end = JsonText.cut(md, offset, page.left());
    a.put("md", md.substring(offset, end));
    if (end < md.length()) {
      a.put(
          "more",
          Cursors.encode(
              name(),
              new JsonObject().put("p", v.path()).put("r", v.rev()).put("h", v.stateHash()).put("s", part.id()).put("o", end)));
    }
    return a;
  }
}
