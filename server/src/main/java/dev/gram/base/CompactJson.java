package dev.gram.base;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Compact JSON text, character for character what Vert.x's {@code encode()} writes (Jackson's
 * default escaping, {@link JsonStrings}: a quote, a backslash and the control characters, the five
 * with a short form as {@code \b \t \n \f \r}, the others as a backslash, {@code u00} and two
 * upper-case hex digits; nothing else escaped).
 *
 * <p>Why not Vert.x's own codec: every tool answer and every reply line goes through this, also in
 * the first calls after a start, before the JIT has compiled anything. There, reading a string one
 * {@code charAt} at a time costs about twelve times what copying it into a {@code char[]} and
 * reading the array costs, and Jackson's writer appends to a synchronized buffer one character at
 * a time; and compiling Vert.x's one large recursive method took C2 half a second of CPU during an
 * agent's first recalls. Here each kind of value has a small method, a string is read from an
 * array, and its text is copied in runs between the characters that need escaping. A value of any
 * other kind (an instant, bytes, a non-finite number) is written by Vert.x's codec, which writes a
 * value the same wherever it sits.
 *
 * <p>{@link #encodeQuoted} also gives the text as a JSON string, as a tool result's text content
 * carries it, in the same pass.
 */
public final class CompactJson {
  private CompactJson() {}

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final char[] NO_CHARS = new char[0];

  /**
   * A value's compact JSON {@code text}, that text as a JSON string ({@code quoted}), and the
   * text's size in UTF-8 bytes (what the response budget measures), counted while writing.
   */
  public record Quoted(String text, String quoted, int utf8Bytes) {}

  /** The compact JSON text of {@code json}. */
  public static String encode(Object json) {
    Scratch s = Scratch.take();
    try {
      Writer w = s.writer(false);
      w.value(json);
      return w.plain.toString();
    } finally {
      s.give();
    }
  }

  /** Appends the compact JSON text of {@code json} to {@code out}. */
  public static void write(Object json, StringBuilder out) {
    new Writer(out, null).value(json);
  }

  /** Appends {@code s} as a JSON string, quotes included. */
  public static void string(String s, StringBuilder out) {
    new Writer(out, null).string(s);
  }

  /**
   * The compact JSON text of {@code json} and the JSON string of that text, written side by side
   * so that the text is not read again to be quoted.
   */
  public static Quoted encodeQuoted(Object json) {
    Scratch s = Scratch.take();
    try {
      Writer w = s.writer(true);
      w.value(json);
      return new Quoted(w.plain.toString(), w.quoted.append('"').toString(), w.plain.length() + w.wide);
    } finally {
      s.give();
    }
  }

  /**
   * Builders for {@link #encode} and {@link #encodeQuoted}, kept between calls in a few slots
   * chosen by the calling thread, so that each event loop mostly finds its own.
   *
   * <p>Why: a tool answer of a few kilobytes grew a fresh pair of 256-character builders by
   * doubling, copying its text five times over; on a recall at rest those copies were an eighth of
   * the event loop's samples (JFR). Why slots and not a {@code ThreadLocal}: the event loop's
   * thread-local table is crowded, and the lookup's probing cost a third of what the copies did. A
   * call that finds its slot empty (another thread of the slot, or a call made while the slot's
   * builders are in use) writes into builders of its own; builders that grew past {@link #KEEP}
   * are let go, so a rare large answer is not held for the process's life, and so are builders
   * that took a character beyond Latin-1 ({@link Writer#beyondLatin1}).
   */
  private static final class Scratch {
    private static final int KEEP = 4 * ResponseBudget.BYTES;
    private static final int SLOTS = 16;
    private static final AtomicReferenceArray<Scratch> KEPT = new AtomicReferenceArray<>(SLOTS);

    private final int slot;
    private final StringBuilder plain = new StringBuilder(1024);
    private final StringBuilder quoted = new StringBuilder(1024);
    private final Writer writer = new Writer();

    private Scratch(int slot) {
      this.slot = slot;
    }

    static Scratch take() {
      int slot = (int) Thread.currentThread().getId() & (SLOTS - 1);
      Scratch s = KEPT.getAndSet(slot, null);
      return s != null ? s : new Scratch(slot);
    }

    Writer writer(boolean quoting) {
      plain.setLength(0);
      quoted.setLength(0);
      return writer.reset(plain, quoting ? quoted : null);
    }

    void give() {
      boolean latin1 = !writer.beyondLatin1;
      writer.reset(null, null);
      if (latin1 && plain.capacity() <= KEEP && quoted.capacity() <= KEEP) {
        KEPT.lazySet(slot, this);
      }
    }
  }

  /** Writes one value; {@code quoted}, when not null, receives the same text as a JSON string's content. */
  private static final class Writer {
    StringBuilder plain;
    StringBuilder quoted;
    /** UTF-8 bytes of the text written so far beyond one per character (non-ASCII text). */
    int wide;
    /**
     * A character beyond Latin-1 was written: the builders then hold two bytes per character, and
     * stay so for their life. Every later answer would be copied into them one character at a time
     * and compressed back one at a time by {@code toString()}, so such builders are not kept. (Run
     * interpreted, as a start's first calls are, a {@code gram_capabilities} call took 1.06 ms with
     * builders widened by the tool list's descriptions and 0.73 ms without.)
     */
    boolean beyondLatin1;
    /** A string's characters, read once; allocated on the first string (a number needs none). */
    private char[] scratch = NO_CHARS;

    Writer() {}

    Writer(StringBuilder plain, StringBuilder quoted) {
      reset(plain, quoted);
    }

    Writer reset(StringBuilder plain, StringBuilder quoted) {
      this.plain = plain;
      this.quoted = quoted;
      this.wide = 0;
      this.beyondLatin1 = false;
      if (quoted != null) {
        quoted.append('"');
      }
      if (scratch.length > Scratch.KEEP) {
        scratch = NO_CHARS;
      }
      return this;
    }

    void value(Object json) {
      if (json instanceof String s) {
        string(s);
      } else if (json instanceof JsonObject o) {
        members(o.getMap());
      } else if (json instanceof JsonArray a) {
        items(a.getList());
      } else if (json instanceof Integer || json instanceof Long || json instanceof Short || json instanceof Byte) {
        raw(Long.toString(((Number) json).longValue()));
      } else if (json instanceof Boolean b) {
        raw(b ? "true" : "false");
      } else if (json == null) {
        raw("null");
      } else if (json instanceof Map<?, ?> m) {
        members(m);
      } else if (json instanceof List<?> l) {
        items(l);
      } else if (json instanceof Double d && Double.isFinite(d)) {
        raw(Double.toString(d));
      } else if (json instanceof Float f && Float.isFinite(f)) {
        raw(Float.toString(f));
      } else {
        foreign(Json.encode(json));
      }
    }

    private void members(Map<?, ?> members) {
      raw('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : members.entrySet()) {
        if (!first) {
          raw(',');
        }
        first = false;
        // Vert.x's codec casts a key to String; a key of another kind fails there too.
        string((String) e.getKey());
        raw(':');
        value(e.getValue());
      }
      raw('}');
    }

    private void items(List<?> items) {
      raw('[');
      for (int i = 0, n = items.size(); i < n; i++) {
        if (i > 0) {
          raw(',');
        }
        value(items.get(i));
      }
      raw(']');
    }

    void string(String s) {
      int n = s.length();
      if (scratch.length < n) {
        scratch = new char[Math.max(Math.max(n, 64), scratch.length * 2)];
      }
      char[] chars = scratch;
      s.getChars(0, n, chars, 0);
      quote();
      int from = 0;
      for (int i = 0; i < n; i++) {
        char c = chars[i];
        if (c < 0x80) {
          if (JsonStrings.ASCII_BYTES[c] > 1) {
            run(s, from, i);
            escape(c);
            from = i + 1;
          }
          continue;
        }
        beyondLatin1 |= c > 0xFF;
        if (!Character.isSurrogate(c)) {
          wide += JsonStrings.bytes(c) - 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars[i + 1])) {
          wide += 2; // four bytes for the pair's two characters
          i++;
        } // a lone surrogate is written as one byte, '?', as String.getBytes writes it
      }
      run(s, from, n);
      quote();
    }

    private void run(String s, int from, int to) {
      if (to > from) {
        plain.append(s, from, to);
        if (quoted != null) {
          quoted.append(s, from, to);
        }
      }
    }

    private void quote() {
      plain.append('"');
      if (quoted != null) {
        quoted.append('\\').append('"');
      }
    }

    private void escape(char c) {
      switch (c) {
        case '"' -> escaped('"');
        case '\\' -> escaped('\\');
        case '\b' -> escaped('b');
        case '\t' -> escaped('t');
        case '\n' -> escaped('n');
        case '\f' -> escaped('f');
        case '\r' -> escaped('r');
        default -> {
          escaped('u');
          raw("00");
          raw(HEX[c >> 4]);
          raw(HEX[c & 0xF]);
        }
      }
    }

    /** A backslash and {@code c}; quoted, the backslash doubled and a quote escaped. */
    private void escaped(char c) {
      plain.append('\\').append(c);
      if (quoted != null) {
        quoted.append('\\').append('\\');
        if (c == '"' || c == '\\') {
          quoted.append('\\');
        }
        quoted.append(c);
      }
    }

    /** Text that is the same in both: structure, numbers, literals. */
    private void raw(char c) {
      plain.append(c);
      if (quoted != null) {
        quoted.append(c);
      }
    }

    private void raw(String text) {
      plain.append(text);
      if (quoted != null) {
        quoted.append(text);
      }
    }

    /** JSON text from Vert.x's codec: compact, so only its quotes and backslashes need escaping quoted. */
    private void foreign(String text) {
      // Rare (an instant, bytes, a non-finite number): measured the plain way.
      int extra = text.getBytes(StandardCharsets.UTF_8).length - text.length();
      wide += extra;
      beyondLatin1 |= extra > 0;
      plain.append(text);
      if (quoted != null) {
        for (int i = 0, n = text.length(); i < n; i++) {
          char c = text.charAt(i);
          if (c == '"' || c == '\\') {
            quoted.append('\\');
          }
          quoted.append(c);
        }
      }
    }
  }
}
