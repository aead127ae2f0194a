package dev.gram.format;

import java.util.regex.Pattern;

/** The lexical rules of ids, keys and names shared by the parser, the writer and the tools. */
public final class Syntax {
  private Syntax() {}

  public static final int MAX_ID = 128;
  public static final int MAX_KEY = 64;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]*");
  private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
  private static final Pattern BLOCK = Pattern.compile("[a-z][a-z0-9_-]*");

  /** An entity id: letters, digits, {@code _ . : -}, not starting with a punctuation mark. */
  public static boolean isId(String s) {
    return s != null && !s.isEmpty() && s.length() <= MAX_ID && ID.matcher(s).matches();
  }

  /**
   * A field key. Words that always start an entity ({@code doc} and the record codes) cannot be
   * keys, or a field line would read as a new record. Lowercase type names can: {@code source} is
   * both a type and a field.
   */
  public static boolean isKey(String s) {
    return s != null
        && !s.isEmpty()
        && s.length() <= MAX_KEY
        && KEY.matcher(s).matches()
        && !isEntityWord(s);
  }

  public static boolean isEntityWord(String s) {
    return s.equals("doc") || EntityType.ofCode(s) != null;
  }

  /** A block name; {@code end} closes a block and cannot name one. */
  public static boolean isBlockName(String s) {
    return s != null
        && !s.isEmpty()
        && s.length() <= MAX_KEY
        && BLOCK.matcher(s).matches()
        && !s.equals("end");
  }

  /** A link target: {@code id} or {@code document-id/entity-id}. */
  public static boolean isTarget(String s) {
    if (s == null) {
      return false;
    }
    int slash = s.indexOf('/');
    if (slash < 0) {
      return isId(s);
    }
    return isId(s.substring(0, slash)) && isId(s.substring(slash + 1));
  }
}
