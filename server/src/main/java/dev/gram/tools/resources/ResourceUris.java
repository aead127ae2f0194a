package dev.gram.tools.resources;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code gram://<path>} and back. A path's characters that a URI may carry as they are stay as they
 * are ({@code /}, {@code @} and the unreserved ones), so a client reads the path in the URI; every
 * other byte is percent-encoded. A URI ending in {@code /} (or {@code gram://} alone) names a folder.
 */
final class ResourceUris {
  static final String SCHEME = "gram://";
  static final String NOT_GRAM = "Not a gram:// resource URI";

  private ResourceUris() {}

  static String of(String path) {
    StringBuilder sb = new StringBuilder(SCHEME);
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~/@".indexOf(c) >= 0)) {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return sb.toString();
  }

  /** The path a URI names, still to be checked by the vault's path rules. */
  static String path(String uri) {
    if (uri == null || !uri.startsWith(SCHEME)) {
      throw new GramException(ErrorCode.E_ARGUMENT, NOT_GRAM + ": " + uri);
    }
    String raw = uri.substring(SCHEME.length());
    int cut = firstOf(raw, '?', '#');
    if (cut >= 0) {
      raw = raw.substring(0, cut);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    while (i < raw.length()) {
      char c = raw.charAt(i);
      if (c == '%') {
        int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new GramException(ErrorCode.E_ARGUMENT, "Bad percent-encoding in " + uri);
        }
        out.write(hi * 16 + lo);
        i += 3;
      } else {
        int end = raw.indexOf('%', i);
        end = end < 0 ? raw.length() : end;
        out.writeBytes(raw.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static int firstOf(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }
}
