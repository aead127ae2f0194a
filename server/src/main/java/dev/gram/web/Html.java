package dev.gram.web;

/**
 * Text into HTML: everything the pages write that came from a document, a request or a tool goes
 * through {@link #text} or {@link #attr}, so nothing an agent wrote can become markup.
 */
final class Html {
  private Html() {}

  /** Appends {@code s} escaped for element content and attribute values alike. */
  static StringBuilder text(StringBuilder out, String s) {
    if (s == null) {
      return out;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out;
  }

  /** {@code s} escaped. */
  static String esc(String s) {
    return s == null ? "" : text(new StringBuilder(s.length() + 16), s).toString();
  }

  /** Appends {@code name="value"} with a leading space, the value escaped. */
  static StringBuilder attr(StringBuilder out, String name, String value) {
    out.append(' ').append(name).append("=\"");
    return text(out, value).append('"');
  }
}
