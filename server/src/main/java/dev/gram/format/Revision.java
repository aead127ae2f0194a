package dev.gram.format;

import java.time.Instant;
import java.util.List;

/**
 * One entry of a document's history: who changed it, when, on whose request, what changed,
 * how to rebuild it from the revision before, and the hashes that chain it to the entry before.
 *
 * @param rev the revision number; 0 is the create
 * @param recordedAt the server clock when the revision was committed
 * @param effectiveAt when the facts happened, as the caller wrote it, or {@code null}
 * @param actor {@code agent} (written through the tools), {@code external} (an edit made by
 *     another program, adopted at load), or {@code import} (a file that had no history)
 * @param by the agent's name
 * @param requestId the caller's request_id, or {@code null} (creates and adopted edits have none)
 * @param digest the SHA-256 of the request's canonical intent (64 hex), or {@code null}
 * @param changes which entities this revision added, changed and removed
 * @param delta the line hunks that turn the previous revision's canonical text into this one's
 *     (revision 0 starts from the empty text)
 * @param stateHash the SHA-256 (64 hex) of this revision's canonical text
 * @param chain the SHA-256 (64 hex) of the previous entry's chain and this entry's text
 */
public record Revision(
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

  public static final String AGENT = "agent";
  public static final String EXTERNAL = "external";
  public static final String IMPORT = "import";

  public Revision {
    changes = List.copyOf(changes);
    delta = List.copyOf(delta);
  }

  /** This entry with another chain hash (the chain is computed over everything else). */
  public Revision withChain(String newChain) {
    return new Revision(
        rev, recordedAt, effectiveAt, actor, by, requestId, digest, changes, delta, stateHash, newChain);
  }

  /** The short form of the state hash shown to agents (16 hex characters). */
  public String shortHash() {
    return stateHash.substring(0, 16);
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
    for (Change c : changes) {
      switch (c.kind()) {
        case ADD -> add++;
        case SET -> set++;
        case DEL -> del++;
      }
    }
    return "+" + add + " ~" + set + " -" + del;
  }
}
