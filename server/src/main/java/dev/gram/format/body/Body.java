package dev.gram.format.body;

import dev.gram.format.Hashes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A document body (its {@code md} text) split into top-level blocks: the gram-rich/1 view of it.
 *
 * <p>The text is the source of truth and is kept exactly as written; blocks are found by reading
 * it line by line. A block's id is derived from its own text, so it stays the same across
 * revisions for as long as that block is not changed, which lets a later patch target it.
 *
 * <p>Parsing is total: every line belongs to exactly one block or is a blank line between blocks.
 */
public final class Body {
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern FENCE = Pattern.compile("^(\\s{0,3})(`{3,}|~{3,})\\s*([^`\\s]*)?.*$");
  private static final Pattern DIVIDER = Pattern.compile("^\\s{0,3}([-*_])(\\s*\\1){2,}\\s*$");
  private static final Pattern ITEM = Pattern.compile("^\\[\\[([^\\]*/\\s][^\\]\\s]*)\\]\\]\\s*$");
  private static final Pattern COLLECTION = Pattern.compile("^\\[\\[\\*\\]\\](?:\\{([^}]*)\\})?\\s*$");
  private static final Pattern IMAGE = Pattern.compile("^!\\[([^\\]]*)\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)\\s*$");
  private static final Pattern LIST_ITEM = Pattern.compile("^(\\s*)([-*+]|\\d{1,9}[.)])\\s+(.*)$");
  private static final Pattern TABLE_SEP = Pattern.compile("^\\s*\\|?\\s*:?-{1,}:?\\s*(\\|\\s*:?-{1,}:?\\s*)*\\|?\\s*$");
  private static final Pattern CALLOUT = Pattern.compile("^>\\s*\\[!([A-Za-z]+)\\][+-]?\\s*(.*)$");
  private static final Pattern ATTR = Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)=(\"[^\"]*\"|[^\\s}]*)");

  private final String text;
  private final List<String> lines;
  private final List<BodyNode> nodes;

  private Body(String text, List<String> lines, List<BodyNode> nodes) {
    this.text = text;
    this.lines = lines;
    this.nodes = nodes;
  }

  public static Body parse(String text) {
    List<String> lines = splitLines(text);
    List<BodyNode> raw = new Parser(lines).blocks();
    return new Body(text, lines, assignIds(raw));
  }

  /**
   * The blocks of a body without their ids: the cheap reading for callers that only need each
   * block's type, text or placed id (hashing every block for its id costs more than finding it).
   */
  public static List<BodyNode> blocksWithoutIds(String text) {
    return new Parser(splitLines(text)).blocks();
  }

  public String text() {
    return text;
  }

  public List<String> lines() {
    return lines;
  }

  public List<BodyNode> nodes() {
    return nodes;
  }

  /** The block with that id, or {@code null}. */
  public BodyNode node(String id) {
    for (BodyNode n : nodes) {
      if (n.id().equals(id)) {
        return n;
      }
    }
    return null;
  }

  /** The first item block placing that record, or {@code null}. */
  public BodyNode placement(String recordId) {
    for (BodyNode n : nodes) {
      if (n.type() == NodeType.ITEM && n.ref().equals(recordId)) {
        return n;
      }
    }
    return null;
  }

  /** The index of a block in {@link #nodes()}, or -1. */
  public int indexOf(BodyNode node) {
    return nodes.indexOf(node);
  }

  /**
   * A section: a heading found by node id, else by its text (exact first, then ignoring case),
   * with every block after it up to the next heading of the same or a higher level. {@code null}
   * when there is no such heading.
   */
  public Section section(String headingOrId) {
    int at = -1;
    for (int i = 0; i < nodes.size() && at < 0; i++) {
      BodyNode n = nodes.get(i);
      if (n.type() == NodeType.HEADING && n.id().equals(headingOrId)) {
        at = i;
      }
    }
    for (int i = 0; i < nodes.size() && at < 0; i++) {
      BodyNode n = nodes.get(i);
      if (n.type() == NodeType.HEADING && n.text().equals(headingOrId)) {
        at = i;
      }
    }
    for (int i = 0; i < nodes.size() && at < 0; i++) {
      BodyNode n = nodes.get(i);
      if (n.type() == NodeType.HEADING && n.text().equalsIgnoreCase(headingOrId.strip())) {
        at = i;
      }
    }
    if (at < 0) {
      return null;
    }
    BodyNode heading = nodes.get(at);
    int end = at + 1;
    while (end < nodes.size()
        && !(nodes.get(end).type() == NodeType.HEADING && nodes.get(end).level() <= heading.level())) {
      end++;
    }
    return new Section(heading, nodes.subList(at, end));
  }

  /** A heading and the blocks under it. */
  public record Section(BodyNode heading, List<BodyNode> nodes) {
    /** The index after the section's last block, in the body's block list. */
    public BodyNode last() {
      return nodes.get(nodes.size() - 1);
    }
  }

  /** Builds body text from blocks' md, one blank line between blocks. */
  public static String join(List<String> blocks) {
    StringBuilder sb = new StringBuilder();
    for (String b : blocks) {
      if (b.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append(b);
    }
    return sb.toString();
  }

  static List<String> splitLines(String text) {
    List<String> out = new ArrayList<>();
    if (text.isEmpty()) {
      return out;
    }
    int start = 0;
    while (true) {
      int nl = text.indexOf('\n', start);
      if (nl < 0) {
        out.add(text.substring(start));
        return out;
      }
      out.add(text.substring(start, nl));
      start = nl + 1;
    }
  }

  private static List<BodyNode> assignIds(List<BodyNode> raw) {
    Map<String, Integer> seen = new HashMap<>();
    List<BodyNode> out = new ArrayList<>(raw.size());
    for (BodyNode n : raw) {
      String base = n.type().idPrefix() + "_" + Hashes.sha256(n.type().wire() + "\n" + n.md()).substring(0, 10);
      int count = seen.merge(base, 1, Integer::sum);
      String id = count == 1 ? base : base + "-" + count;
      out.add(
          new BodyNode(
              id, n.type(), n.start(), n.end(), n.md(), n.level(), n.text(), n.ref(), n.attrs(), n.items()));
    }
    return List.copyOf(out);
  }

  /** Parses {@code key=value key2="a b"} into an ordered map. */
  public static Map<String, String> attributes(String s) {
    Map<String, String> out = new LinkedHashMap<>();
    if (s == null) {
      return out;
    }
    Matcher m = ATTR.matcher(s);
    while (m.find()) {
      String v = m.group(2);
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
        v = v.substring(1, v.length() - 1);
      }
      out.put(m.group(1), v);
    }
    return out;
  }

  /** The line-by-line block reader. */
  private static final class Parser {
    private final List<String> lines;
    private final List<BodyNode> out = new ArrayList<>();
    private int i;

    Parser(List<String> lines) {
      this.lines = lines;
    }

    List<BodyNode> blocks() {
      while (i < lines.size()) {
        String line = lines.get(i);
        if (line.isBlank()) {
          i++;
          continue;
        }
        int start = i;
        Matcher m;
        if ((m = FENCE.matcher(line)).matches()) {
          fence(start, m.group(2), m.group(3));
        } else if (line.strip().equals("$$")) {
          math(start);
        } else if ((m = HEADING.matcher(line)).matches()) {
          i++;
          add(NodeType.HEADING, start, m.group(1).length(), m.group(2), null, null, null);
        } else if (DIVIDER.matcher(line).matches()) {
          i++;
          add(NodeType.DIVIDER, start, 0, null, null, null, null);
        } else if ((m = ITEM.matcher(line)).matches()) {
          i++;
          add(NodeType.ITEM, start, 0, null, m.group(1), null, null);
        } else if ((m = COLLECTION.matcher(line)).matches()) {
          i++;
          add(NodeType.COLLECTION, start, 0, null, null, attributes(m.group(1)), null);
        } else if ((m = IMAGE.matcher(line)).matches()) {
          i++;
          add(NodeType.IMAGE, start, 0, null, m.group(2), Map.of("alt", m.group(1)), null);
        } else if (line.startsWith(">")) {
          quote(start);
        } else if (line.strip().startsWith("|") && i + 1 < lines.size() && TABLE_SEP.matcher(lines.get(i + 1)).matches()) {
          table(start);
        } else if (LIST_ITEM.matcher(line).matches()) {
          list(start);
        } else {
          paragraph(start);
        }
      }
      return out;
    }

    private void add(
        NodeType type,
        int start,
        int level,
        String text,
        String ref,
        Map<String, String> attrs,
        List<BodyNode.ListItem> items) {
      String md = String.join("\n", lines.subList(start, i));
      out.add(new BodyNode("", type, start, i, md, level, text, ref, attrs, items));
    }

    private void fence(int start, String marker, String lang) {
      i++;
      char c = marker.charAt(0);
      List<String> body = new ArrayList<>();
      while (i < lines.size()) {
        String l = lines.get(i);
        String s = l.strip();
        i++;
        if (s.length() >= marker.length() && s.chars().allMatch(ch -> ch == c)) {
          break;
        }
        body.add(l);
      }
      Map<String, String> attrs = lang == null || lang.isEmpty() ? Map.of() : Map.of("lang", lang);
      add(NodeType.CODE, start, 0, String.join("\n", body), null, attrs, null);
    }

    private void math(int start) {
      i++;
      List<String> body = new ArrayList<>();
      while (i < lines.size()) {
        if (lines.get(i).strip().equals("$$")) {
          i++;
          break;
        }
        body.add(lines.get(i));
        i++;
      }
      add(NodeType.MATH, start, 0, String.join("\n", body), null, null, null);
    }

    private void quote(int start) {
      Matcher callout = CALLOUT.matcher(lines.get(start));
      List<String> body = new ArrayList<>();
      while (i < lines.size() && lines.get(i).startsWith(">")) {
        String l = lines.get(i).substring(1);
        body.add(l.startsWith(" ") ? l.substring(1) : l);
        i++;
      }
      if (callout.matches()) {
        List<String> rest = body.subList(1, body.size());
        String title = callout.group(2);
        String text = String.join("\n", rest);
        if (!title.isEmpty()) {
          text = text.isEmpty() ? title : title + "\n" + text;
        }
        add(NodeType.CALLOUT, start, 0, text, null, Map.of("kind", callout.group(1).toLowerCase(java.util.Locale.ROOT)), null);
      } else {
        add(NodeType.QUOTE, start, 0, String.join("\n", body), null, null, null);
      }
    }

    private void table(int start) {
      while (i < lines.size() && lines.get(i).strip().startsWith("|")) {
        i++;
      }
      add(NodeType.TABLE, start, 0, null, null, null, null);
    }

    private void list(int start) {
      List<BodyNode.ListItem> items = new ArrayList<>();
      while (i < lines.size()) {
        String l = lines.get(i);
        if (l.isBlank()) {
          // A blank line inside a list continues it only if an indented or item line follows.
          int j = i + 1;
          if (j < lines.size() && !lines.get(j).isBlank()
              && (LIST_ITEM.matcher(lines.get(j)).matches() || lines.get(j).startsWith("  "))) {
            i++;
            continue;
          }
          break;
        }
        Matcher m = LIST_ITEM.matcher(l);
        if (m.matches()) {
          int depth = m.group(1).replace("\t", "  ").length() / 2;
          boolean ordered = Character.isDigit(m.group(2).charAt(0));
          items.add(new BodyNode.ListItem(depth, ordered, m.group(3)));
          i++;
        } else if (l.startsWith(" ") || l.startsWith("\t")) {
          if (!items.isEmpty()) {
            BodyNode.ListItem last = items.remove(items.size() - 1);
            items.add(new BodyNode.ListItem(last.depth(), last.ordered(), last.text() + "\n" + l.strip()));
          }
          i++;
        } else {
          break;
        }
      }
      add(NodeType.LIST, start, 0, null, null, null, items);
    }

    private void paragraph(int start) {
      List<String> body = new ArrayList<>();
      while (i < lines.size()) {
        String l = lines.get(i);
        if (l.isBlank()) {
          break;
        }
        if (i > start && startsBlock(l, i)) {
          break;
        }
        body.add(l);
        i++;
      }
      add(NodeType.PARAGRAPH, start, 0, String.join("\n", body), null, null, null);
    }

    private boolean startsBlock(String l, int at) {
      return FENCE.matcher(l).matches()
          || DIVIDER.matcher(l).matches()
          || l.strip().equals("$$")
          || HEADING.matcher(l).matches()
          || ITEM.matcher(l).matches()
          || COLLECTION.matcher(l).matches()
          || l.startsWith(">")
          || LIST_ITEM.matcher(l).matches()
          || (l.strip().startsWith("|") && at + 1 < lines.size() && TABLE_SEP.matcher(lines.get(at + 1)).matches());
    }
  }
}
