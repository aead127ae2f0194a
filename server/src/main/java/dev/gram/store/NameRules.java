package dev.gram.store;

import java.nio.charset.StandardCharsets;

/**
 * Names that only look safe. A path segment is refused when it would not be the same name to
 * every program that reads the vault, or to the person reading it:
 *
 * <ul>
 *   <li>leading or trailing spaces, and trailing dots, which Windows and some sync tools drop, so
 *       that {@code a.gram } and {@code a.gram} become one file;
 *   <li>characters that look like a path separator or a dot ({@code ∕} U+2215, {@code ／} U+FF0F,
 *       {@code ．} U+FF0E, {@code ⁄} U+2044 and their kin), which make {@code ..∕x} read as
 *       {@code ../x};
 *   <li>invisible and direction-changing characters (bidi controls such as U+202E, zero-width
 *       spaces), which make a name read differently than it is written;
 *   <li>percent-encoded dots, slashes and backslashes ({@code %2e}, {@code %2f}, {@code %5c}, and
 *       {@code %25} that encodes them twice), which a program that decodes names would read as
 *       {@code ..} or {@code /};
 *   <li>an unpaired UTF-16 surrogate, which is not text and has no file name;
 *   <li>a segment longer than {@value #MAX_SEGMENT_BYTES} bytes of UTF-8, the limit of common file
 *       systems.
 * </ul>
 */
final class NameRules {
  private NameRules() {}

  static final int MAX_SEGMENT_BYTES = 255;
  static final int MAX_PATH_CHARS = 1024;

  private static final java.util.regex.Pattern ENCODED =
      java.util.regex.Pattern.compile("%(2e|2f|5c|25|c0|c1|e0)", java.util.regex.Pattern.CASE_INSENSITIVE);

  /** Why {@code segment} is refused, or {@code null} when it is an honest name. */
  static String problem(String segment) {
    if (segment.startsWith(" ") || segment.endsWith(" ")) {
      return "a name starting or ending with a space";
    }
    if (segment.endsWith(".")) {
      return "a name ending with a dot";
    }
    if (ENCODED.matcher(segment).find()) {
      return "a percent-encoded dot, slash or backslash";
    }
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < segment.length() && Character.isLowSurrogate(segment.charAt(i + 1))) {
        i++;
        continue;
      }
      if (Character.isSurrogate(c)) {
        return "an unpaired UTF-16 surrogate, which is not text";
      }
      if (lookalike(c)) {
        return String.format("U+%04X looks like a path separator or a dot", (int) c);
      }
      if (invisible(c)) {
        return String.format("U+%04X is invisible or changes the direction of text", (int) c);
      }
    }
    if (segment.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
      return "a name longer than " + MAX_SEGMENT_BYTES + " bytes";
    }
    return null;
  }

  private static boolean lookalike(char c) {
    return switch (c) {
      case '\u2215', '\u2044', '\u29F8', '\u29F9', '\uFF0F', '\uFF3C', '\uFE68', '\u2216', '\u244A',
          '\uFF0E', '\u2024', '\uFE52', '\u3002', '\uFF61', '\u0701', '\u0702', '\uA4F8' -> true;
      default -> false;
    };
  }

  private static boolean invisible(char c) {
    return (c >= '\u200B' && c <= '\u200F')
        || (c >= '\u202A' && c <= '\u202E')
        || (c >= '\u2060' && c <= '\u2069')
        || c == '\u061C'
        || c == '\uFEFF'
        || c == '\u00AD'
        || (c >= '\u0080' && c <= '\u009F');
  }
}
