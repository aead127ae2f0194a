package dev.gram.base;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * The contract's response budget: no tool answer is larger than {@link #BYTES} bytes of compact
 * UTF-8 JSON. Tools page with cursors to stay under it; the protocol layer checks every answer
 * again and turns an oversized one into {@link ErrorCode#E_CONTEXT_BUDGET}.
 */
public final class ResponseBudget {
  private ResponseBudget() {}

  /** {@code budget_bytes} in {@code gram_capabilities} and {@code gram_profile}. */
  public static final int BYTES = 16_384;

  /** The size of the answer as a client receives it in the text content. */
  public static int sizeOf(JsonObject answer) {
    return sizeOf(CompactJson.encode(answer));
  }

  /** The size in UTF-8 bytes of an answer already encoded as compact JSON. */
  public static int sizeOf(String encodedAnswer) {
    return encodedAnswer.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * True when the answer is at most {@link #BYTES} bytes. Decided without encoding it when a bound
   * ({@link #atMost}) already says so: the protocol layer encodes every answer once for the
   * client, and a tool that checks its own answer first should not make that twice.
   */
  public static boolean fits(JsonObject answer) {
    return roughlyAtMost(answer) <= BYTES || atMost(answer) <= BYTES || sizeOf(answer) <= BYTES;
  }

  /**
   * A bound like {@link #atMost}, looser: for every character of a string the most one takes
   * ({@link JsonStrings#MOST_BYTES}), so no string is read. Why: most answers are a fraction of the budget,
   * and reading every character of one to learn that took a tenth of the event loop's time on a
   * recall at rest (JFR).
   */
  static long roughlyAtMost(Object json) {
    return new Bound(true).of(json);
  }

  /**
   * A bound on the size in UTF-8 bytes of {@code json}'s compact JSON that is never below it, and
   * equal to it for text without surrogates and for whole numbers: found by looking at each
   * character once, without writing any. Values it cannot bound give {@link Long#MAX_VALUE}.
   */
  public static long atMost(Object json) {
    return new Bound(false).of(json);
  }

  /**
   * One walk of {@link #atMost} (or, {@code rough}, of {@link #roughlyAtMost}), with the array it
   * reads strings from (see {@link CompactJson}).
   */
  private static final class Bound {
    private final boolean rough;
    private char[] scratch = new char[0];

    Bound(boolean rough) {
      this.rough = rough;
    }

    long of(Object json) {
      if (json == null) {
        return 4;
      }
      if (json instanceof String s) {
        return 2 + text(s);
      }
      if (json instanceof JsonObject o) {
        return members(o.getMap());
      }
      if (json instanceof java.util.Map<?, ?> m) {
        return members(m);
      }
      if (json instanceof io.vertx.core.json.JsonArray a) {
        return items(a.getList());
      }
      if (json instanceof java.util.List<?> l) {
        return items(l);
      }
      if (json instanceof Boolean b) {
        return b ? 4 : 5;
      }
      if (json instanceof Integer || json instanceof Long || json instanceof Short || json instanceof Byte) {
        return String.valueOf(json).length();
      }
      if (json instanceof Double || json instanceof Float) {
        // The longest a double is written: "-2.2250738585072014E-308".
        return 24;
      }
      return Long.MAX_VALUE;
    }

    private long members(java.util.Map<?, ?> members) {
      long n = 2 + Math.max(0, members.size() - 1);
      for (java.util.Map.Entry<?, ?> e : members.entrySet()) {
        n = sum(n, 3 + text(String.valueOf(e.getKey())), of(e.getValue()));
      }
      return n;
    }

    private long items(java.util.List<?> items) {
      long n = 2 + Math.max(0, items.size() - 1);
      for (Object item : items) {
        n = sum(n, 0, of(item));
      }
      return n;
    }

    private static long sum(long a, long b, long c) {
      return a == Long.MAX_VALUE || c == Long.MAX_VALUE ? Long.MAX_VALUE : a + b + c;
    }

    /**
     * The characters of a string as JSON writes them ({@link JsonStrings}), a surrogate counted as
     * three, above the four bytes of a whole pair.
     */
    private long text(String s) {
      int length = s.length();
      if (rough) {
        return (long) JsonStrings.MOST_BYTES * length;
      }
      if (scratch.length < length) {
        scratch = new char[Math.max(Math.max(length, 64), scratch.length * 2)];
      }
      char[] chars = scratch;
      s.getChars(0, length, chars, 0);
      long n = 0;
      for (int i = 0; i < length; i++) {
        char c = chars[i];
        if (c < 0x80) {
          n += JsonStrings.ASCII_BYTES[c];
        } else {
          n += c < 0x800 ? 2 : 3;
        }
      }
      return n;
    }
  }
}
