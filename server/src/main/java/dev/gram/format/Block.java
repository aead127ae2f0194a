package dev.gram.format;

/**
 * A named multi-line value of an entity: the owner's body is the block {@code rich}; records may
 * carry {@code reason}, {@code summary}, {@code quote} and others. The text is kept exactly as
 * written (lines joined by {@code \n}, no trailing newline added).
 */
public record Block(String name, String text) {
  /** The name of the owner's body block. */
  public static final String RICH = "rich";
}
