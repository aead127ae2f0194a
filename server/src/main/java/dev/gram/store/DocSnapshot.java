package dev.gram.store;

import dev.gram.format.GramDocument;
import dev.gram.format.History;
import dev.gram.format.IntegrityException;
import dev.gram.format.Revision;
import dev.gram.format.StateWalk;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * One document as readers see it: an immutable view of its latest committed revision, swapped
 * atomically after each commit. Readers never wait for writers; a reader that holds a snapshot
 * keeps a consistent view however many commits follow.
 *
 * @param path the agent-visible path
 * @param location where the document lives
 * @param state the current state, or {@code null} when the file does not parse
 * @param history every revision, or {@code null} when the file does not parse or its history
 *     fails the integrity check
 * @param rev the current revision number
 * @param hash the SHA-256 (64 hex) of the current state's canonical text
 * @param fingerprint what the file looked like when this snapshot was read or written
 * @param persistedRevisions how many of the history's revisions are in the file; fewer than all
 *     when the file had no history (revision 0 is made up at load) or was edited by another
 *     program (that edit becomes a revision at load), until the next write stores them
 * @param failure why the document cannot be written (or read), or {@code null}
 */
public record DocSnapshot(
    String path,
    VaultPath location,
    GramDocument state,
    History history,
    int rev,
    String hash,
    FileFingerprint fingerprint,
    int persistedRevisions,
    String failure) {

  /** The same document after its file was (re)written or found unchanged in content. */
  DocSnapshot withFile(FileFingerprint file, int persisted) {
    return new DocSnapshot(path, location, state, history, rev, hash, file, persisted, failure);
  }

  /** The same document, closed to writes for {@code why} ({@code E_INTEGRITY}). */
  DocSnapshot failing(String why) {
    return new DocSnapshot(path, location, state, history, rev, hash, fingerprint, persistedRevisions, why);
  }

  /** The 16-hex form agents hold as {@code expected_hash}. */
  public String shortHash() {
    return hash == null ? null : hash.substring(0, 16);
  }

  public boolean readable() {
    return state != null;
  }

  public boolean writable() {
    return failure == null && history != null;
  }

  /** The state, or {@code E_INTEGRITY} when the file cannot be read. */
  public GramDocument requireState() {
    if (state == null) {
      throw new GramException(ErrorCode.E_INTEGRITY, "Document cannot be read: " + failure);
    }
    return state;
  }

  /** The history, or {@code E_INTEGRITY} when it cannot be trusted. */
  public History requireHistory() {
    if (history == null) {
      throw new GramException(
          ErrorCode.E_INTEGRITY,
          failure == null ? "Document has no readable history" : failure);
    }
    return history;
  }

  public List<Revision> revisions() {
    return requireHistory().revisions();
  }

  public Revision head() {
    return requireHistory().head();
  }

  /** The state at a revision, rebuilt from the history. */
  public GramDocument stateAt(int revision) {
    if (revision == rev && state != null) {
      return state;
    }
    History h = requireHistory();
    if (revision < 0 || revision > h.headRev()) {
      throw new GramException(
          ErrorCode.E_ARGUMENT,
          "revision " + revision + " does not exist; " + path + " is at revision " + rev);
    }
    try {
      return h.stateAt(revision);
    } catch (IntegrityException e) {
      throw new GramException(ErrorCode.E_INTEGRITY, e.getMessage());
    }
  }

  /**
   * The states of this document's revisions, asked for in increasing order, each laid onto the
   * one before ({@link StateWalk}) rather than rebuilt as {@link #stateAt} does.
   */
  public Function<Revision, GramDocument> statesInOrder() {
    StateWalk walk = new StateWalk(requireHistory());
    return r -> {
      try {
        return walk.stateAfter(r);
      } catch (IntegrityException e) {
        throw new GramException(ErrorCode.E_INTEGRITY, e.getMessage());
      }
    };
  }

  /** The newest revision recorded at or before {@code t}, or -1 when none was. */
  public int revisionRecordedAt(Instant t) {
    List<Revision> revs = revisions();
    for (int i = revs.size() - 1; i >= 0; i--) {
      if (!revs.get(i).recordedAt().isAfter(t)) {
        return i;
      }
    }
    return -1;
  }
}
