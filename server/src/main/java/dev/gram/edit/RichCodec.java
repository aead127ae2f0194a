package dev.gram.edit;

import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * gram-rich/1: the body as a JSON tree. A tree is {@code {"type":"doc","content":[node…]}} (or
 * just the list of nodes); each node has a {@code type} and the fields of its kind:
 *
 * <pre>
 * heading    {level 1-6, text}          paragraph {text}
 * list       {ordered?, items: [text | {text, items}]}
 * table      {rows: [[cell…]…]} (first row is the header)
 * quote      {text}                     callout   {kind?, text}
 * code       {lang?, text}              math      {text}
 * divider    {}                         image     {src, alt?}
 * item       {ref}                      collection {type?, status?, tag?, view?}
 * </pre>
 *
 * <p>The tree is written into the body as md, so both forms read back the same. A node of another
 * type is left out and reported as {@code unsupported_node}.
 */
public final class RichCodec {
  private RichCodec() {}

  /** The md text of a tree or a single node. */
  public static String toMd(Object tree, Diagnostics diagnostics, String where) {
    JsonArray nodes;
    if (tree instanceof JsonArray a) {
      nodes = a;
    } else if (tree instanceof JsonObject o) {
      if ("doc".equals(o.getString("type")) || o.containsKey("content")) {
        Object c = o.getValue("content");
        nodes = c instanceof JsonArray ca ? ca : new JsonArray();
      } else {
        nodes = new JsonArray().add(o);
      }
    } else {
      throw Args.bad(where, "rich must be a gram-rich/1 tree {type: doc, content: [...]}");
    }
    List<String> blocks = new ArrayList<>();
    for (Object n : nodes) {
      if (!(n instanceof JsonObject node)) {
        diagnostics.add(Diagnostics.UNSUPPORTED_NODE, "doc", "a rich node must be an object");
        continue;
      }
      String md = nodeMd(node, diagnostics);
      if (md != null) {
        blocks.add(md);
      }
    }
    return Body.join(blocks);
  }

  private static String nodeMd(JsonObject n, Diagnostics d) {
    String type = n.getString("type", "");
    String text = str(n, "text");
    switch (type) {
      case "heading" -> {
        int level = Math.max(1, Math.min(6, n.getInteger("level", 1)));
        return "#".repeat(level) + " " + oneLine(text);
      }
      case "paragraph" -> {
        return text;
      }
      case "list" -> {
        List<String> lines = new ArrayList<>();
        listLines(n.getValue("items"), n.getBoolean("ordered", false), 0, lines);
        return String.join("\n", lines);
      }
      case "table" -> {
        return table(n.getValue("rows"));
      }
      case "quote" -> {
        return prefixed("> ", text);
      }
      case "callout" -> {
        String kind = n.getString("kind", "note");
        return "> [!" + kind + "]" + (text.isEmpty() ? "" : "\n" + prefixed("> ", text));
      }
      case "code" -> {
        String fence = text.contains("```") ? "~~~~" : "```";
        return fence + n.getString("lang", "") + "\n" + text + "\n" + fence;
      }
      case "math" -> {
        return "$$\n" + text + "\n$$";
      }
      case "divider" -> {
        return "---";
      }
      case "image" -> {
        return "![" + n.getString("alt", "") + "](" + n.getString("src", "") + ")";
      }
      case "item" -> {
        return "[[" + n.getString("ref", "") + "]]";
      }
      case "collection" -> {
        StringBuilder sb = new StringBuilder("[[*]]");
        List<String> attrs = new ArrayList<>();
        for (String k : List.of("type", "status", "tag", "view")) {
          String v = n.getString(k);
          if (v != null) {
            attrs.add(k + "=" + (v.contains(" ") ? "\"" + v + "\"" : v));
          }
        }
        if (!attrs.isEmpty()) {
          sb.append('{').append(String.join(" ", attrs)).append('}');
        }
        return sb.toString();
      }
      default -> {
        d.add(Diagnostics.UNSUPPORTED_NODE, "doc", "rich node type " + (type.isEmpty() ? "(none)" : type) + " is not supported");
        return null;
      }
    }
  }

  private static void listLines(Object items, boolean ordered, int depth, List<String> out) {
    if (!(items instanceof JsonArray a)) {
      return;
    }
    int n = 1;
    for (Object it : a) {
      String indent = "  ".repeat(depth);
      String marker = ordered ? (n++) + "." : "-";
      if (it instanceof JsonObject o) {
        out.add(indent + marker + " " + oneLine(str(o, "text")));
        listLines(o.getValue("items"), o.getBoolean("ordered", false), depth + 1, out);
      } else {
        out.add(indent + marker + " " + oneLine(String.valueOf(it)));
      }
    }
  }

  private static String table(Object rows) {
    if (!(rows instanceof JsonArray a) || a.isEmpty()) {
      return "| |\n|---|";
    }
    int width = 0;
    for (Object r : a) {
      width = Math.max(width, r instanceof JsonArray ra ? ra.size() : 1);
    }
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      Object r = a.getValue(i);
      List<String> cells = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        Object v = r instanceof JsonArray ra && c < ra.size() ? ra.getValue(c) : "";
        cells.add(oneLine(String.valueOf(v == null ? "" : v)).replace("|", "\\|"));
      }
      lines.add("| " + String.join(" | ", cells) + " |");
      if (i == 0) {
        lines.add("|" + "---|".repeat(width));
      }
    }
    return String.join("\n", lines);
  }

  private static String prefixed(String prefix, String text) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n", -1)) {
      out.add(l.isEmpty() ? prefix.strip() : prefix + l);
    }
    return String.join("\n", out);
  }

  private static String str(JsonObject n, String key) {
    Object v = n.getValue(key);
    return v == null ? "" : String.valueOf(v);
  }

  private static String oneLine(String s) {
    return s.replace('\n', ' ');
  }

  /** One body block as a gram-rich/1 node (the inverse of {@link #toMd} for one node). */
  public static JsonObject toRich(BodyNode n) {
    JsonObject o = new JsonObject().put("type", n.type().wire()).put("id", n.id());
    switch (n.type()) {
      case HEADING -> o.put("level", n.level()).put("text", n.text());
      case PARAGRAPH, QUOTE, MATH -> o.put("text", n.text());
      case CALLOUT -> o.put("kind", n.attrs().get("kind")).put("text", n.text());
      case CODE -> {
        if (n.attrs().containsKey("lang")) {
          o.put("lang", n.attrs().get("lang"));
        }
        o.put("text", n.text());
      }
      case IMAGE -> o.put("src", n.ref()).put("alt", n.attrs().get("alt"));
      case ITEM -> o.put("ref", n.ref());
      case COLLECTION -> {
        for (Map.Entry<String, String> e : n.attrs().entrySet()) {
          o.put(e.getKey(), e.getValue());
        }
      }
      case LIST -> {
        JsonArray items = new JsonArray();
        for (BodyNode.ListItem it : n.items()) {
          items.add(new JsonArray().add(it.depth()).add(it.text()));
        }
        o.put("ordered", !n.items().isEmpty() && n.items().get(0).ordered()).put("items", items);
      }
      case TABLE -> {
        JsonArray rows = new JsonArray();
        String[] lines = n.md().split("\n");
        for (int i = 0; i < lines.length; i++) {
          if (i == 1) {
            continue;
          }
          rows.add(new JsonArray(splitRow(lines[i])));
        }
        o.put("rows", rows);
      }
      case DIVIDER -> {
        // nothing more to say
      }
    }
    return o;
  }

  /**
   * A table row's cells: split at unescaped {@code |}, the outer pipes dropped, {@code \|} read
   * as {@code |}, each cell stripped. (The web view shows tables with it too.)
   */
  public static List<Object> splitRow(String line) {
    String s = line.strip();
    if (s.startsWith("|")) {
      s = s.substring(1);
    }
    if (s.endsWith("|") && !s.endsWith("\\|")) {
      s = s.substring(0, s.length() - 1);
    }
    List<Object> cells = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '|') {
        cur.append('|');
        i++;
      } else if (c == '|') {
        cells.add(cur.toString().strip());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    cells.add(cur.toString().strip());
    return cells;
  }

  static boolean isType(String s) {
    return NodeType.ofWire(s) != null;
  }
}
