package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The text of history entries and the hash chain over them.
 *
 * <p>An entry's text is every line from {@code @rev} through {@code state}, each ending in {@code
 * \n}. Its chain hash is {@code SHA-256(previousChain + "\n" + entryText)}, where previousChain is
 * the empty string for revision 0. Because the entry text includes the state hash, the chain
 * covers both what each revision did and what it resulted in.
 */
public final class HistoryCodec {
  private HistoryCodec() {}

  /** The entry's text: every line from {@code @rev} through {@code state}. */
  public static String entryText(Revision r) {
    return r.text();
  }

  /** An entry as the file stores it: its text and its {@code chain} line. */
  public static String fileEntry(Revision r) {
    return new String(r.entry(), StandardCharsets.UTF_8);
  }

  /** {@code head} followed by the entry as the file stores it, in UTF-8: a new array. */
  public static byte[] fileEntryAfter(byte[] head, Revision r) {
    byte[] entry = r.entry();
    byte[] out = Arrays.copyOf(head, head.length + entry.length);
    System.arraycopy(entry, 0, out, head.length, entry.length);
    return out;
  }

  /** The entry of a revision with these parts, in UTF-8, as {@link #fileEntry} gives it. */
  static byte[] encode(
      int rev,
      Instant recordedAt,
      String effectiveAt,
      String actor,
      String by,
      String requestId,
      String digest,
      List<Revision.Change> changes,
      List<Revision.Hunk> delta,
      String stateHash,
      String chain) {
    StringBuilder sb = new StringBuilder(256);
    sb.append("@rev ").append(rev).append('\n');
    sb.append("at ").append(Times.format(recordedAt)).append('\n');
    sb.append("actor ").append(actor).append('\n');
    sb.append("by ").append(Values.encode(by)).append('\n');
    if (effectiveAt != null) {
      sb.append("eff ").append(Values.encode(effectiveAt)).append('\n');
    }
    if (requestId != null) {
      sb.append("req ").append(Values.encode(requestId)).append('\n');
    }
    if (digest != null) {
      sb.append("digest ").append(digest).append('\n');
    }
    for (Revision.Change c : changes) {
      sb.append("chg ").append(c.kind().mark()).append(' ').append(c.id());
      if (c.kind() == Revision.Kind.SET) {
        for (String k : c.keys()) {
          sb.append(' ').append(k);
        }
      } else {
        sb.append(' ').append(c.type());
      }
      sb.append('\n');
    }
    for (Revision.Hunk h : delta) {
      sb.append("diff ").append(h.start()).append(' ').append(h.deleteCount()).append('\n');
      for (String line : h.lines()) {
        sb.append('|').append(line).append('\n');
      }
    }
    sb.append("state ").append(stateHash).append('\n');
    sb.append("chain ").append(chain).append('\n');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  // The readers below take an entry that encode wrote and the start of its chain line: each
  // line is "<key> <value>", a hunk's lines start with '|', and no key is a prefix of another's
  // line, so the first line that starts with a key is that key's.

  /** Where the last line of {@code entry} (which ends in a line end) starts. */
  static int lastLineStart(byte[] entry) {
    return lineStartBefore(entry, entry.length);
  }

  /** Where the line that ends just before {@code end} starts. */
  private static int lineStartBefore(byte[] entry, int end) {
    int i = end - 2;
    while (i >= 0 && entry[i] != '\n') {
      i--;
    }
    return i + 1;
  }

  /** The rest of the first line before {@code end} that starts with {@code key}, or null. */
  static String value(byte[] entry, int end, String key) {
    for (int at = 0; at < end; ) {
      int nl = lineEnd(entry, at);
      if (startsWith(entry, at, nl, key)) {
        return new String(entry, at + key.length(), nl - at - key.length(), StandardCharsets.UTF_8);
      }
      at = nl + 1;
    }
    return null;
  }

  /** The {@code state} line's hash: the line before the chain line. */
  static String stateHash(byte[] entry, int chainLine) {
    int at = lineStartBefore(entry, chainLine);
    return new String(entry, at + 6, chainLine - at - 7, StandardCharsets.UTF_8);
  }

  static List<Revision.Change> changes(byte[] entry, int end) {
    List<Revision.Change> out = new ArrayList<>(2);
    for (int at = 0; at < end; ) {
      int nl = lineEnd(entry, at);
      if (startsWith(entry, at, nl, "chg ")) {
        String[] p = new String(entry, at + 4, nl - at - 4, StandardCharsets.UTF_8).split(" ", -1);
        Revision.Kind kind = Revision.Kind.of(p[0]);
        out.add(kind == Revision.Kind.SET
            ? Revision.Change.changed(p[1], Arrays.asList(p).subList(2, p.length))
            : new Revision.Change(kind, p[1], p[2], List.of()));
      }
      at = nl + 1;
    }
    return List.copyOf(out);
  }

  static List<Revision.Hunk> delta(byte[] entry, int end) {
    List<Revision.Hunk> out = new ArrayList<>(2);
    int at = 0;
    while (at < end) {
      int nl = lineEnd(entry, at);
      if (!startsWith(entry, at, nl, "diff ")) {
        at = nl + 1;
        continue;
      }
      // "diff <start> <deleteCount>": two decimal numbers that encode wrote.
      int start = 0;
      int k = at + 5;
      for (; entry[k] != ' '; k++) {
        start = start * 10 + (entry[k] - '0');
      }
      int deleteCount = 0;
      for (k++; k < nl; k++) {
        deleteCount = deleteCount * 10 + (entry[k] - '0');
      }
      List<String> lines = new ArrayList<>();
      at = nl + 1;
      while (at < end && entry[at] == '|') {
        nl = lineEnd(entry, at);
        lines.add(new String(entry, at + 1, nl - at - 1, StandardCharsets.UTF_8));
        at = nl + 1;
      }
      out.add(new Revision.Hunk(start, deleteCount, lines));
    }
    return List.copyOf(out);
  }

  private static int lineEnd(byte[] entry, int from) {
    int i = from;
    while (entry[i] != '\n') {
      i++;
    }
    return i;
  }

  private static boolean startsWith(byte[] entry, int from, int lineEnd, String key) {
    if (lineEnd - from < key.length()) {
      return false;
    }
    for (int k = 0; k < key.length(); k++) {
      if (entry[from + k] != key.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  public static String chain(String previousChain, Revision r) {
    // Over the entry's bytes as the revision holds them: every commit, follow and load hashes one.
    byte[] head = ((previousChain == null ? "" : previousChain) + "\n").getBytes(StandardCharsets.UTF_8);
    return Hashes.sha256(head, r.entry(), r.textLength());
  }

  /** Returns a copy of {@code r} with its chain computed from the previous entry. */
  public static Revision sealed(String previousChain, Revision r) {
    return r.withChain(chain(previousChain, r));
  }

  /** Checks links of the chain; returns the first bad revision, or -1 when all hold. */
  public static int firstBrokenLink(List<Revision> history) {
    String prev = null;
    for (int i = 0; i < history.size(); i++) {
      Revision r = history.get(i);
      if (r.rev() != i || !chain(prev, r).equals(r.chain())) {
        return i;
      }
      prev = r.chain();
    }
    return -1;
  }
}
