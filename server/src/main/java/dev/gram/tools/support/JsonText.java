package dev.gram.tools.support;

import dev.gram.base.JsonStrings;
import dev.gram.format.Hashes;
import dev.gram.store.RequestDigest;

/**
 * Sizes of text as it travels in a compact JSON answer, for cutting long text into pages that fit
 * the budget, and short digests that bind cursors to what they were made for.
 */
public final class JsonText {
  private JsonText() {}

  /** Bytes the string takes inside a JSON string literal ({@link JsonStrings}; no quotes). */
  public static int size(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      n += JsonStrings.bytes(s.charAt(i));
    }
    return n;
  }

  /**
   * The end (exclusive) of the longest piece of {@code s} from {@code from} that takes at most
   * {@code maxBytes}: cut after a blank line when one lies in the second half of the piece, else
   * after a line break there, else anywhere that does not split a surrogate pair. Returns {@code
   * from} when not even one character fits.
   */
  public static int cut(String s, int from, int maxBytes) {
    int used = 0;
    int end = from;
    while (end < s.length()) {
      int w = JsonStrings.bytes(s.charAt(end));
      int step = 1;
      if (Character.isHighSurrogate(s.charAt(end)) && end + 1 < s.length()) {
        w += JsonStrings.bytes(s.charAt(end + 1));
        step = 2;
      }
      if (used + w > maxBytes) {
        break;
      }
      used += w;
      end += step;
    }
    if (end >= s.length() || end == from) {
      return end;
    }
    int half = from + (end - from) / 2;
    int blank = s.lastIndexOf("\n\n", end - 2);
    if (blank >= half) {
      return blank + 2;
    }
    int nl = s.lastIndexOf('\n', end - 1);
    if (nl >= half) {
      return nl + 1;
    }
    return end;
  }

  /** 16 hex digits of the SHA-256 of a JSON value's canonical form. */
  public static String digest(Object json) {
    return Hashes.sha256(RequestDigest.canonical(json)).substring(0, 16);
  }
}
