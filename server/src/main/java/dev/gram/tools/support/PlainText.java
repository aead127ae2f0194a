package dev.gram.tools.support;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounded plain text for gram_context: the owner's body with every placement and mention read as
 * the record it points at ({@code type id: title}), and a record's blocks as {@code name: text}.
 * Cut to a number of characters, ending with an ellipsis when cut.
 */
public final class PlainText {
  private PlainText() {}

  private static final Pattern MENTION = Pattern.compile("\\[([^\\]]*)\\]\\(@([^)\\s]+)\\)");

  /** The text of an entity: the body first (for the owner), then its other blocks. */
  public static String of(Entity e, GramDocument doc, BodyRefs refs, int maxChars) {
    List<String> parts = new ArrayList<>();
    if (e.isOwner()) {
      String body = body(Body.parse(doc.body()), refs, maxChars);
      if (!body.isEmpty()) {
        parts.add(body);
      }
    }
    for (Block b : e.blocks()) {
      if (e.isOwner() && b.name().equals(Block.RICH)) {
        continue;
      }
      parts.add(b.name() + ": " + b.text());
    }
    return cut(String.join("\n", parts), maxChars);
  }

  static String body(Body body, BodyRefs refs, int maxChars) {
    StringBuilder sb = new StringBuilder();
    for (BodyNode n : body.nodes()) {
      if (sb.length() > maxChars) {
        break;
      }
      String t = node(n, refs);
      if (t.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(t);
    }
    return sb.toString();
  }

  private static String node(BodyNode n, BodyRefs refs) {
    switch (n.type()) {
      case HEADING:
        return n.text();
      case PARAGRAPH:
      case QUOTE:
      case CALLOUT:
        return mentions(n.text(), refs);
      case CODE:
      case MATH:
        return n.text();
      case LIST: {
        List<String> lines = new ArrayList<>();
        for (BodyNode.ListItem it : n.items()) {
          lines.add("  ".repeat(it.depth()) + "- " + mentions(it.text(), refs));
        }
        return String.join("\n", lines);
      }
      case TABLE: {
        List<String> lines = new ArrayList<>();
        String[] rows = n.md().split("\n");
        for (int i = 0; i < rows.length; i++) {
          if (i != 1) {
            lines.add(mentions(rows[i].strip(), refs));
          }
        }
        return String.join("\n", lines);
      }
      case IMAGE:
        return "image: " + n.attrs().getOrDefault("alt", "") + " (" + n.ref() + ")";
      case ITEM: {
        BodyRefs.Ref r = refs.resolve(n.ref());
        return r == null ? n.ref() + " (unresolved)" : record(r);
      }
      case COLLECTION: {
        List<String> lines = new ArrayList<>();
        for (Entity e : Selections.select(refs.document(), n.attrs())) {
          lines.add("- " + record(new BodyRefs.Ref(e.id(), e, refs.document())));
        }
        return String.join("\n", lines);
      }
      default:
        return "";
    }
  }

  private static String record(BodyRefs.Ref r) {
    Entity e = r.entity();
    String x = e.first("x");
    return e.type().typeName() + " " + r.shownId() + ": " + e.title() + (x == null ? "" : " (" + x + ")");
  }

  static String mentions(String text, BodyRefs refs) {
    if (text == null || text.indexOf("](@") < 0) {
      return text == null ? "" : text;
    }
    Matcher m = MENTION.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      BodyRefs.Ref r = refs.resolve(m.group(2));
      String shown = r == null ? m.group(1) + " (" + m.group(2) + ", unresolved)" : m.group(1) + " (" + record(r) + ")";
      m.appendReplacement(sb, Matcher.quoteReplacement(shown));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static final Pattern IMAGE_OR_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
  private static final Pattern EMPHASIS = Pattern.compile("(\\*\\*|\\*|~~)(\\S(?:.*?\\S)?)\\1");
  /** Underscores emphasise only outside a word: {@code snake_case_name} stays as it is. */
  private static final Pattern UNDERSCORE_EMPHASIS = Pattern.compile("(?<![\\p{L}\\p{N}])(__|_)(\\S(?:.*?\\S)?)\\1(?![\\p{L}\\p{N}])");
  private static final Pattern ESCAPE = Pattern.compile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!~|>])");

  /**
   * A line of Markdown as a person reads it: code spans, emphasis, strike-through, links, images
   * and mentions reduced to their text, escapes resolved, runs of spaces collapsed. {@code ###
   * `gram_recall` tool} reads {@code gram_recall tool}.
   */
  public static String inline(String md) {
    if (md == null) {
      return "";
    }
    String s = CODE_SPAN.matcher(md).replaceAll(m -> Matcher.quoteReplacement(m.group(2).strip()));
    s = IMAGE_OR_LINK.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    String before;
    do {
      before = s;
      s = EMPHASIS.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(2)));
      s = UNDERSCORE_EMPHASIS.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(2)));
    } while (!s.equals(before));
    s = ESCAPE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
    return s.replaceAll("\\s+", " ").strip();
  }

  /** At most {@code max} characters, ending with an ellipsis when cut; never splits a pair. */
  public static String cut(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int end = max - 1;
    if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end) + "…";
  }
}
