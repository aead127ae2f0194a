package dev.gram.format;

/**
 * How a single-line value is written after its key. A value is written raw unless writing it raw
 * would not read back as the same string: then it is written as a JSON string literal. Quoted
 * form is used when the value is empty, starts with {@code "}, starts or ends with a space or tab,
 * or contains a control character (U+0000–U+001F, U+007F), U+2028 or U+2029.
 */
public final class Values {
  private Values() {}

  public static boolean needsQuotes(String v) {
    if (v.isEmpty() || v.charAt(0) == '"') {
      return true;
    }
    char first = v.charAt(0);
    char last = v.charAt(v.length() - 1);
    if (first == ' ' || first == '\t' || last == ' ' || last == '\t') {
      return true;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
        return true;
      }
    }
    return false;
  }

  /** The value as it appears after {@code "<key> "} on a line. */
  public static String encode(String v) {
    return needsQuotes(v) ? quote(v) : v;
  }

  static String quote(String v) {
    StringBuilder sb = new StringBuilder(v.length() + 8).append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Reads a value written by {@link #encode}. Returns {@code null} when a value starting with
   * {@code "} is not one well-formed JSON string literal.
   */
  public static String decode(String written) {
    if (written.isEmpty() || written.charAt(0) != '"') {
      return written;
    }
    StringBuilder sb = new StringBuilder(written.length());
    int i = 1;
    while (i < written.length()) {
      char c = written.charAt(i++);
      if (c == '"') {
        return i == written.length() ? sb.toString() : null;
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i >= written.length()) {
        return null;
      }
      char e = written.charAt(i++);
      switch (e) {
        case '"' -> sb.append('"');
        case '\\' -> sb.append('\\');
        case '/' -> sb.append('/');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'u' -> {
          if (i + 4 > written.length()) {
            return null;
          }
          try {
            sb.append((char) Integer.parseInt(written.substring(i, i + 4), 16));
          } catch (NumberFormatException ex) {
            return null;
          }
          i += 4;
        }
        default -> {
          return null;
        }
      }
    }
    return null;
  }
}
