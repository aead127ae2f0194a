package dev.gram.base;

/**
 * What a character takes inside a JSON string as this server writes one ({@link CompactJson}, the
 * characters of Vert.x's {@code encode()}): a quote and a backslash escaped in two bytes, as are
 * the five control characters with a short form ({@code \b \t \n \f \r}), every other control
 * character in six (a backslash, {@code u} and four hex digits), the rest in UTF-8. The one rule
 * that writing answers, bounding their size ({@link ResponseBudget#atMost}) and cutting text into
 * pages share.
 */
public final class JsonStrings {
  private JsonStrings() {}

  /**
   * Bytes each ASCII character takes inside a JSON string; more than one means it is escaped. A
   * table, not a method, because the loops that read it run before the JIT compiles them too.
   */
  static final byte[] ASCII_BYTES = new byte[128];

  /** The most bytes one character takes: a control character without a short form. */
  static final int MOST_BYTES = 6;

  static {
    for (int c = 0; c < 128; c++) {
      ASCII_BYTES[c] = (byte) (c < 0x20 ? MOST_BYTES : 1);
    }
    for (char c : new char[] {'"', '\\', '\b', '\t', '\n', '\f', '\r'}) {
      ASCII_BYTES[c] = 2;
    }
  }

  /**
   * Bytes the UTF-16 unit {@code c} takes inside a JSON string, in UTF-8: a surrogate counts two,
   * half of the four bytes of a whole pair.
   */
  public static int bytes(char c) {
    if (c < 0x80) {
      return ASCII_BYTES[c];
    }
    if (c < 0x800) {
      return 2;
    }
    return Character.isSurrogate(c) ? 2 : 3;
  }
}
