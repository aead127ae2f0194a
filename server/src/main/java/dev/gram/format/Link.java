package dev.gram.format;

import java.util.List;

/**
 * A typed link from a record to a target: a record id in the same document, or {@code
 * document-id/entity-id} in another.
 */
public record Link(String predicate, String target) {

  /** The predicates a link may carry. */
  public static final List<String> PREDICATES =
      List.of(
          "related",
          "supports",
          "contradicts",
          "depends",
          "implements",
          "replaces",
          "derives",
          "blocks",
          "enables",
          "part-of");

  public static boolean isPredicate(String s) {
    return PREDICATES.contains(s);
  }

  /** True when the target names an entity in another document. */
  public boolean crossDocument() {
    return target.indexOf('/') >= 0;
  }
}
