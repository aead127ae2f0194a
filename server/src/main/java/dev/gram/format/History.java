package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A verified history: every revision of one document, able to rebuild the canonical text (and so
 * the state) of any of them.
 *
 * <p>Each revision is stored as a forward delta from the one before, so the history alone
 * rebuilds every state and the current state at the top of the file is a view of it. To read an
 * old revision without replaying from revision 0, the text of every {@link #CHECKPOINT_EVERY}th
 * revision is kept in memory: a read replays at most {@code CHECKPOINT_EVERY - 1} deltas. Lines
 * are shared between checkpoints (a delta copies references, not strings), so a checkpoint costs
 * one reference per line.
 *
 * <p>Immutable: {@link #append} returns a new history sharing the checkpoints of this one, and its
 * list of revisions ({@link AppendOnlyList}), so a commit costs the same on a document of ten
 * revisions as on one of a hundred thousand.
 */
public final class History {
  public static final int CHECKPOINT_EVERY = 32;
  /** How the line that starts a file's history begins. */
  private static final byte[] HISTORY_LINE = "\n@history ".getBytes(StandardCharsets.UTF_8);

  /** Each holds its entry as written in the file, encoded once: a checkpoint writes them all. */
  private final AppendOnlyList<Revision> revisions;
  private final List<String> headLines;
  /** Checkpoint texts by revision; shared by all histories descending from the same load. */
  private final Map<Integer, List<String>> checkpoints;
  /** Recently rebuilt states; derived data, shared, bounded. */
  private final Map<Integer, GramDocument> recentStates;

  private History(
      AppendOnlyList<Revision> revisions,
      List<String> headLines,
      Map<Integer, List<String>> checkpoints,
      Map<Integer, GramDocument> recentStates) {
    this.revisions = revisions;
    this.headLines = headLines;
    this.checkpoints = checkpoints;
    this.recentStates = recentStates;
  }

  /** A new history whose only revision is {@code rev0}, made from the document's first text. */
  public static History first(Revision rev0, List<String> lines) {
    Map<Integer, List<String>> cps = new ConcurrentHashMap<>();
    cps.put(0, List.copyOf(lines));
    return new History(AppendOnlyList.of(List.of(rev0)), List.copyOf(lines), cps, newRecent());
  }

  /**
   * Checks a file's history: the chain links, the {@code @history} head, and that replaying the
   * deltas reproduces each checkpoint's and the last revision's state hash.
   */
  public static History verify(List<Revision> revisions, int headRev, String headChain)
      throws IntegrityException {
    if (revisions.isEmpty()) {
      throw new IntegrityException(0, "History has no revisions");
    }
    int broken = HistoryCodec.firstBrokenLink(revisions);
    if (broken >= 0) {
      Revision r = revisions.get(broken);
      if (r.rev() != broken) {
        throw new IntegrityException(
            broken, "History out of order: entry " + broken + " is revision " + r.rev());
      }
      throw new IntegrityException(broken, "History hash chain broken at revision " + broken);
    }
    Revision last = revisions.get(revisions.size() - 1);
    if (headRev != last.rev()) {
      throw new IntegrityException(
          Math.min(headRev, last.rev() + 1),
          "History truncated or altered: @history names revision "
              + headRev
              + " but the last entry is revision "
              + last.rev());
    }
    if (!last.chain().equals(headChain)) {
      throw new IntegrityException(
          headRev,
          "History altered: the chain hash on the @history line is not that of revision "
              + headRev
              + ", the last entry");
    }
    Map<Integer, List<String>> cps = new ConcurrentHashMap<>();
    List<String> text = List.of();
    for (Revision r : revisions) {
      try {
        text = LineDiff.apply(text, r.delta());
      } catch (IllegalArgumentException e) {
        throw new IntegrityException(r.rev(), "History delta of revision " + r.rev() + " does not apply");
      }
      boolean check = r.rev() % CHECKPOINT_EVERY == 0 || r == last;
      if (check) {
        text = List.copyOf(text);
        if (!Hashes.sha256(LineDiff.join(text)).equals(r.stateHash())) {
          throw new IntegrityException(
              r.rev(), "History does not reproduce the state of revision " + r.rev());
        }
        cps.put(r.rev(), text);
      }
    }
    return new History(AppendOnlyList.of(revisions), text, cps, newRecent());
  }

  private static Map<Integer, GramDocument> newRecent() {
    return Collections.synchronizedMap(
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Integer, GramDocument> eldest) {
            return size() > 16;
          }
        });
  }

  public List<Revision> revisions() {
    return revisions;
  }

  public Revision head() {
    return revisions.get(revisions.size() - 1);
  }

  public int headRev() {
    return head().rev();
  }

  public Revision revision(int rev) {
    return revisions.get(rev);
  }

  /** The canonical lines of the newest revision. */
  public List<String> headLines() {
    return headLines;
  }

  /** The canonical lines of a revision, rebuilt from the nearest checkpoint below it. */
  public List<String> linesAt(int rev) throws IntegrityException {
    if (rev < 0 || rev > headRev()) {
      throw new IllegalArgumentException("no revision " + rev);
    }
    if (rev == headRev()) {
      return headLines;
    }
    int base = rev - (rev % CHECKPOINT_EVERY);
    List<String> text = checkpoints.get(base);
    if (text == null) {
      // Checkpoints are only missing for revisions appended after load; walk down to one.
      while (text == null && base > 0) {
        base -= CHECKPOINT_EVERY;
        text = checkpoints.get(base);
      }
      if (text == null) {
        base = -1;
        text = List.of();
      }
    }
    for (int r = base + 1; r <= rev; r++) {
      try {
        text = LineDiff.apply(text, revisions.get(r).delta());
      } catch (IllegalArgumentException e) {
        throw new IntegrityException(r, "History delta of revision " + r + " does not apply");
      }
    }
    if (!Hashes.sha256(LineDiff.join(text)).equals(revisions.get(rev).stateHash())) {
      throw new IntegrityException(rev, "History does not reproduce the state of revision " + rev);
    }
    if (rev % CHECKPOINT_EVERY == 0) {
      checkpoints.put(rev, List.copyOf(text));
    }
    return text;
  }

  /** The state of a revision. */
  public GramDocument stateAt(int rev) throws IntegrityException {
    GramDocument cached = recentStates.get(rev);
    if (cached != null) {
      return cached;
    }
    List<String> lines = linesAt(rev);
    GramParser.Result parsed = GramParser.parse(LineDiff.join(lines));
    if (!(parsed instanceof GramParser.Success s)) {
      throw new IntegrityException(rev, "History state of revision " + rev + " does not parse: " + parsed);
    }
    recentStates.put(rev, s.file().state());
    return s.file().state();
  }

  /**
   * The whole file for this history with {@code state} at the top: the same bytes as {@link
   * GramFile#write()}, from entries encoded once instead of at every commit.
   */
  public byte[] fileBytes(GramDocument state) {
    return fileBytes(GramWriter.write(state));
  }

  /**
   * The whole file with {@code stateText}, the canonical text of the head state ({@link
   * GramWriter#write}), at the top: for a writer that already wrote it to hash it.
   */
  public byte[] fileBytes(String stateText) {
    byte[] top = stateText.getBytes(StandardCharsets.UTF_8);
    Revision last = head();
    byte[] headLine = headLine(last);
    int size = top.length + headLine.length;
    for (Revision r : revisions) {
      size += r.entry().length;
    }
    byte[] out = new byte[size];
    int at = 0;
    System.arraycopy(top, 0, out, at, top.length);
    at += top.length;
    System.arraycopy(headLine, 0, out, at, headLine.length);
    at += headLine.length;
    for (Revision r : revisions) {
      byte[] b = r.entry();
      System.arraycopy(b, 0, out, at, b.length);
      at += b.length;
    }
    return out;
  }

  /**
   * How many of this history's revisions {@code file} holds, when it is byte for byte the file a
   * checkpoint of its first revisions writes ({@link #fileBytes(String)} of that prefix: the
   * canonical state of the last of them, its {@code @history} line, their entries); -1 when it is
   * anything else.
   *
   * <p>Why: a node following another node's revisions holds them all, and sees the owner's
   * checkpoint of them change the file every round. Recognising its own revisions here costs one
   * comparison of the bytes and one hash of the state's text, where reading the file costs a parse,
   * a hash per revision to verify the chain, and the state written again, and grows with the
   * history. Any other file (an edit by another program, a different history) is read in full.
   */
  public int persistedIn(byte[] file) {
    // The history starts at a line "@history <rev> <chain>"; a body may hold such a line too.
    for (int at = indexOf(file, HISTORY_LINE, 0); at >= 0; at = indexOf(file, HISTORY_LINE, at + 1)) {
      int held = persistedFrom(file, at);
      if (held > 0) {
        return held;
      }
    }
    return -1;
  }

  /** {@link #persistedIn} when the history starts at {@code at}. */
  private int persistedFrom(byte[] file, int at) {
    int rev = 0;
    int i = at + HISTORY_LINE.length;
    int digits = 0;
    while (i < file.length && file[i] >= '0' && file[i] <= '9' && digits < 9) {
      rev = rev * 10 + (file[i] - '0');
      i++;
      digits++;
    }
    if (digits == 0 || rev > headRev()) {
      return -1;
    }
    byte[] head = headLine(revision(rev));
    if (!regionIs(file, at, head)) {
      return -1;
    }
    int pos = at + head.length;
    for (int k = 0; k <= rev; k++) {
      byte[] entry = revisions.get(k).entry();
      if (!regionIs(file, pos, entry)) {
        return -1;
      }
      pos += entry.length;
    }
    if (pos != file.length) {
      return -1;
    }
    String topHash = Hashes.sha256(Arrays.copyOfRange(file, 0, at));
    return topHash.equals(revision(rev).stateHash()) ? rev + 1 : -1;
  }

  private static byte[] headLine(Revision last) {
    return ("\n@history " + last.rev() + " " + last.chain() + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static int indexOf(byte[] in, byte[] what, int from) {
    outer:
    for (int i = from; i + what.length <= in.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (in[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static boolean regionIs(byte[] in, int from, byte[] what) {
    return from + what.length <= in.length
        && Arrays.equals(in, from, from + what.length, what, 0, what.length);
  }

  /**
   * The first {@code size} revisions of this history: what a file held before revisions that
   * exist only in memory (an edit by another program adopted at load) were added to it.
   */
  public History prefix(int size) throws IntegrityException {
    if (size < 1 || size > revisions.size()) {
      throw new IllegalArgumentException("no prefix of " + size + " revisions in " + revisions.size());
    }
    if (size == revisions.size()) {
      return this;
    }
    List<String> lines = linesAt(size - 1);
    Map<Integer, List<String>> cps = new ConcurrentHashMap<>();
    checkpoints.forEach((rev, text) -> {
      if (rev < size) {
        cps.put(rev, text);
      }
    });
    return new History(
        AppendOnlyList.of(revisions.subList(0, size)), lines, cps, newRecent());
  }

  /** A new history with one more revision whose canonical text is {@code lines}. */
  public History append(Revision next, List<String> lines) {
    if (next.rev() != headRev() + 1) {
      throw new IllegalArgumentException("revision " + next.rev() + " does not follow " + headRev());
    }
    List<String> copy = List.copyOf(lines);
    if (next.rev() % CHECKPOINT_EVERY == 0) {
      checkpoints.put(next.rev(), copy);
    }
    // O(1): the new history shares this one's arrays (AppendOnlyList), which stays as it was.
    return new History(revisions.plus(next), copy, checkpoints, recentStates);
  }
}
