package dev.gram.format.body;

import java.util.List;
import java.util.Map;

/**
 * One top-level block of a body.
 *
 * @param id stable while the block's text does not change: the type's letter, {@code _}, and the
 *     first 10 hex digits of the SHA-256 of its text, with {@code -2}, {@code -3}… for repeats
 * @param type what kind of block it is
 * @param start the block's first line in the body (0-based)
 * @param end the line after its last line
 * @param md the block's text exactly as written
 * @param level a heading's level (1–6), else 0
 * @param text a heading's text; a paragraph's, quote's or callout's text; a code block's code
 * @param ref the record id an item places, or the source of an image
 * @param attrs a collection's filter ({@code type status tag view}), a code block's {@code lang},
 *     a callout's {@code kind}, an image's {@code alt}
 * @param items a list's items as {@code [depth, text]} pairs (depth 0 is top level)
 */
public record BodyNode(
    String id,
    NodeType type,
    int start,
    int end,
    String md,
    int level,
    String text,
    String ref,
    Map<String, String> attrs,
    List<ListItem> items) {

  public BodyNode {
    attrs = attrs == null ? Map.of() : Map.copyOf(attrs);
    items = items == null ? List.of() : List.copyOf(items);
  }

  /** One list item: its nesting depth, whether its list is ordered, and its text. */
  public record ListItem(int depth, boolean ordered, String text) {}

  /** A short label for outlines: heading text, first words of text, the placed id. */
  public String label() {
    String s =
        switch (type) {
          case ITEM -> ref;
          case COLLECTION -> attrs.isEmpty() ? "*" : attrs.toString();
          case DIVIDER -> "---";
          case LIST -> items.isEmpty() ? "" : items.get(0).text();
          case TABLE -> md.lines().findFirst().orElse("");
          case IMAGE -> attrs.getOrDefault("alt", ref);
          default -> text == null ? "" : text;
        };
    s = s.replace('\n', ' ').strip();
    return s.length() > 80 ? s.substring(0, 79) + "…" : s;
  }
}
