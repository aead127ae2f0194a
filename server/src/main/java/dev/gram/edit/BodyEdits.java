package dev.gram.edit;

import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The body operations of {@code gram_patch} (insert, replace, drop, move) as pure functions of the
 * body's md text: a block is addressed by its node id, or by a record id meaning where that record
 * is placed; a position is {@code after}, {@code before}, {@code section} (after a heading's
 * section) or {@code at} ({@code start}, {@code end}).
 */
final class BodyEdits {
  private static final List<String> POSITION_KEYS = List.of("after", "before", "section", "at");

  private BodyEdits() {}

  /** {@code md} inserted where {@code op} says, or at the end when it says nowhere. */
  static String insert(String body, String md, JsonObject op, String where) {
    Body parsed = Body.parse(body);
    int at = POSITION_KEYS.stream().anyMatch(op::containsKey) ? position(parsed, positionArgs(op), where)
        : parsed.nodes().size();
    List<String> blocks = blocks(body);
    blocks.add(at, md);
    return Body.join(blocks);
  }

  /** A record's placement {@code md} at {@code place}: "end", "start", {after}, {before} or {section}. */
  static String place(String body, String md, Object place, String where) {
    List<String> blocks = blocks(body);
    int at;
    if ("end".equals(place)) {
      at = blocks.size();
    } else if ("start".equals(place)) {
      at = 0;
    } else if (place instanceof JsonObject p) {
      Args.allowOnly(p, java.util.Set.of("after", "before", "section"), where + " place");
      at = position(Body.parse(body), p, where + " place");
    } else {
      throw Args.bad(where, "place is \"end\", {after: id}, {before: id} or {section: heading}");
    }
    blocks.add(at, md);
    return Body.join(blocks);
  }

  static String replace(String body, String node, String md, String where) {
    Body parsed = Body.parse(body);
    List<String> blocks = blocks(body);
    blocks.set(parsed.indexOf(locate(parsed, node, where)), md);
    return Body.join(blocks);
  }

  static String drop(String body, String node, String where) {
    Body parsed = Body.parse(body);
    List<String> blocks = blocks(body);
    blocks.remove(parsed.indexOf(locate(parsed, node, where)));
    return Body.join(blocks);
  }

  static String move(String body, String node, JsonObject op, String where) {
    Body parsed = Body.parse(body);
    int from = parsed.indexOf(locate(parsed, node, where));
    int to = position(parsed, positionArgs(op), where);
    List<String> blocks = blocks(body);
    String md = blocks.remove(from);
    if (to > from) {
      to--;
    }
    blocks.add(to, md);
    return Body.join(blocks);
  }

  private static List<String> blocks(String body) {
    List<String> out = new ArrayList<>();
    for (BodyNode n : Body.blocksWithoutIds(body)) {
      out.add(n.md());
    }
    return out;
  }

  /** The block index an {after|before|section|at} object points to. */
  private static int position(Body body, JsonObject p, String where) {
    int given = 0;
    for (String k : POSITION_KEYS) {
      if (p.containsKey(k)) {
        given++;
      }
    }
    if (given != 1) {
      throw Args.bad(where, "give exactly one of after, before, section or at");
    }
    if (p.containsKey("at")) {
      String at = Args.string(p, "at", where);
      return switch (at) {
        case "start" -> 0;
        case "end" -> body.nodes().size();
        default -> throw Args.bad(where, "at is start or end");
      };
    }
    if (p.containsKey("section")) {
      String s = Args.string(p, "section", where);
      Body.Section section = body.section(s);
      if (section == null) {
        throw Args.bad(where, "no heading " + s + " in the body");
      }
      return body.indexOf(section.last()) + 1;
    }
    boolean after = p.containsKey("after");
    String id = Args.string(p, after ? "after" : "before", where);
    int i = body.indexOf(locate(body, id, where));
    return after ? i + 1 : i;
  }

  private static BodyNode locate(Body body, String id, String where) {
    BodyNode n = body.node(id);
    if (n == null) {
      n = body.placement(id);
    }
    if (n == null) {
      throw Args.bad(where, "no body node or placed record " + id + " (gram_get outline lists node ids)");
    }
    return n;
  }

  private static JsonObject positionArgs(JsonObject op) {
    JsonObject p = new JsonObject();
    for (String k : POSITION_KEYS) {
      if (op.containsKey(k)) {
        p.put(k, op.getValue(k));
      }
    }
    return p;
  }
}
