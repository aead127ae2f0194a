package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a document's history: who changed it, when, on whose request, what changed,
 * how to rebuild it from the revision before, and the hashes that chain it to the entry before.
 *
 * <p>A revision is held as its entry's bytes, as the file and the write-ahead log store them
 * ({@link HistoryCodec#fileEntry}). Why: every revision of every document stays in memory, so
 * their size bounds the history a heap can hold and start. Held as parsed fields beside the
 * encoded bytes that a checkpoint writes, a one-field patch took about 1,150 bytes of heap (1,310
 * after a restart); as bytes alone, about 600 in all, of which the entry is some 340 ({@code
 * CommitCpuBench -Dbench.memoryCommits}, docs/performance.md). The number and the two times,
 * which reads by time walk over, are fields; every other part is read from the bytes when asked
 * (a scan of one entry, a few hundred bytes; the state hash from its end). Immutable; equal when
 * the number, the times and the bytes are.
 *
 * <p>The parts, as the constructor takes them:
 *
 * <ul>
 *   <li>{@code rev}: the revision number; 0 is the create
 *   <li>{@code recordedAt}: the server clock when the revision was committed
 *   <li>{@code effectiveAt}: when the facts happened, as the caller wrote it, or {@code null}
 *   <li>{@code actor}: {@code agent} (written through the tools), {@code external} (an edit made
 *       by another program, adopted at load), or {@code import} (a file that had no history)
 *   <li>{@code by}: the agent's name
 *   <li>{@code requestId}: the caller's request_id, or {@code null} (creates and adopted edits
 *       have none)
 *   <li>{@code digest}: the SHA-256 of the request's canonical intent (64 hex), or {@code null}
 *   <li>{@code changes}: which entities this revision added, changed and removed
 *   <li>{@code delta}: the line hunks that turn the previous revision's canonical text into this
 *       one's (revision 0 starts from the empty text)
 *   <li>{@code stateHash}: the SHA-256 (64 hex) of this revision's canonical text
 *   <li>{@code chain}: the SHA-256 (64 hex) of the previous entry's chain and this entry's text;
 *       empty until {@link HistoryCodec#sealed} computes it
 * </ul>
 */
public final class Revision {

  public static final String AGENT = "agent";
  public static final String EXTERNAL = "external";
  public static final String IMPORT = "import";

  private final int rev;
  private final Instant recordedAt;
  private final String effectiveAt;
  /** The entry as {@link HistoryCodec#fileEntry} writes it, in UTF-8; never written again. */
  private final byte[] entry;
  /** Where the entry's last line, {@code chain <hex>}, starts. */
  private final int chainLine;

  public Revision(
      int rev,
      Instant recordedAt,
      String effectiveAt,
      String actor,
      String by,
      String requestId,
      String digest,
      List<Change> changes,
      List<Hunk> delta,
      String stateHash,
      String chain) {
    this(rev, recordedAt, effectiveAt,
        HistoryCodec.encode(rev, recordedAt, effectiveAt, actor, by, requestId, digest, List.copyOf(changes),
            List.copyOf(delta), stateHash, chain == null ? "" : chain));
  }

  private Revision(int rev, Instant recordedAt, String effectiveAt, byte[] entry) {
    this.rev = rev;
    this.recordedAt = Objects.requireNonNull(recordedAt, "recordedAt");
    this.effectiveAt = effectiveAt;
    this.entry = entry;
    this.chainLine = HistoryCodec.lastLineStart(entry);
  }

  /** This entry with another chain hash (the chain is computed over everything else). */
  public Revision withChain(String newChain) {
    byte[] line = ("chain " + newChain + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] sealed = Arrays.copyOf(entry, chainLine + line.length);
    System.arraycopy(line, 0, sealed, chainLine, line.length);
    return new Revision(rev, recordedAt, effectiveAt, sealed);
  }

  public int rev() {
    return rev;
  }

  public Instant recordedAt() {
    return recordedAt;
  }

  public String effectiveAt() {
    return effectiveAt;
  }

  public String actor() {
    String a = HistoryCodec.value(entry, chainLine, "actor ");
    // The three actors are constants: give the same strings back, not a copy per entry.
    return switch (a) {
      case AGENT -> AGENT;
      case EXTERNAL -> EXTERNAL;
      case IMPORT -> IMPORT;
      default -> a;
    };
  }

  public String by() {
    return Values.decode(HistoryCodec.value(entry, chainLine, "by "));
  }

  public String requestId() {
    String written = HistoryCodec.value(entry, chainLine, "req ");
    return written == null ? null : Values.decode(written);
  }

  public String digest() {
    return HistoryCodec.value(entry, chainLine, "digest ");
  }

  public List<Change> changes() {
    return HistoryCodec.changes(entry, chainLine);
  }

  public List<Hunk> delta() {
    return HistoryCodec.delta(entry, chainLine);
  }

  public String stateHash() {
    return HistoryCodec.stateHash(entry, chainLine);
  }

  public String chain() {
    return new String(entry, chainLine + 6, entry.length - chainLine - 7, StandardCharsets.UTF_8);
  }

  /** The entry's text without its chain line: what the chain hash covers. */
  String text() {
    return new String(entry, 0, chainLine, StandardCharsets.UTF_8);
  }

  /** How many of the entry's bytes are its {@link #text}. */
  int textLength() {
    return chainLine;
  }

  /** The entry as the file stores it, in UTF-8; shared, never to be written. */
  byte[] entry() {
    return entry;
  }

  /** The short form of the state hash shown to agents (16 hex characters). */
  public String shortHash() {
    return stateHash().substring(0, 16);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Revision r && rev == r.rev && recordedAt.equals(r.recordedAt)
        && Objects.equals(effectiveAt, r.effectiveAt) && Arrays.equals(entry, r.entry);
  }

  @Override
  public int hashCode() {
    return 31 * rev + Arrays.hashCode(entry);
  }

  @Override
  public String toString() {
    return "Revision[" + new String(entry, StandardCharsets.UTF_8).replace('\n', ';') + "]";
  }

  /** What a revision did to one entity. */
  public record Change(Kind kind, String id, String type, List<String> keys) {
    public Change {
      keys = List.copyOf(keys);
    }

    public static Change added(String id, String type) {
      return new Change(Kind.ADD, id, type, List.of());
    }

    public static Change changed(String id, List<String> keys) {
      return new Change(Kind.SET, id, null, keys);
    }

    public static Change removed(String id, String type) {
      return new Change(Kind.DEL, id, type, List.of());
    }
  }

  public enum Kind {
    ADD('+'),
    SET('~'),
    DEL('-');

    private final char mark;

    Kind(char mark) {
      this.mark = mark;
    }

    public char mark() {
      return mark;
    }

    static Kind of(String s) {
      return switch (s) {
        case "+" -> ADD;
        case "~" -> SET;
        case "-" -> DEL;
        default -> null;
      };
    }
  }

  /**
   * Replace {@code deleteCount} lines at {@code start} (0-based, in the older text) with {@code
   * lines} (from the newer text).
   */
  public record Hunk(int start, int deleteCount, List<String> lines) {
    public Hunk {
      lines = List.copyOf(lines);
    }
  }

  /** The count summary shown in briefs: {@code "+added ~changed -removed"}. */
  public String countSummary() {
    int add = 0;
    int set = 0;
    int del = 0;
    for (Change c : changes()) {
      switch (c.kind()) {
        case ADD -> add++;
        case SET -> set++;
        case DEL -> del++;
      }
    }
    return "+" + add + " ~" + set + " -" + del;
  }
}
