package dev.gram.tools.support;

import dev.gram.async.Async;
import dev.gram.format.GramDocument;
import dev.gram.store.DocSnapshot;
import dev.gram.store.VaultPath;
import dev.gram.base.ErrorCode;
import dev.gram.tools.support.GramContext;
import dev.gram.base.GramException;
import dev.gram.format.EffectiveState;
import dev.gram.format.Times;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Reading documents for the tools: one snapshot per document per call, and the checks that keep
 * a read from mixing two versions of a document.
 *
 * <p>A snapshot is immutable, so everything answered from one snapshot is consistent however many
 * commits follow. Two snapshots of the same document meet in exactly two places, and both are
 * checked with {@link #requireSameRevision}:
 *
 * <ul>
 *   <li>rebuilding a past revision, which runs on the vault's I/O pool: when it is done, the
 *       document's current history must still hold that revision with the same state hash — if the
 *       file was replaced meanwhile by one with another history, the answer would describe a
 *       revision that no longer exists;
 *   <li>continuing a cursor, which pins the revision its first page was read at: the next page is
 *       read from a newer snapshot, whose history must hold the pinned revision unchanged.
 * </ul>
 *
 * <p>A document that merely moved on (new revisions appended) passes both checks: its past
 * revisions do not change. Only a replacement (a file with a different history at the same path)
 * or a removal fails them, with {@code STALE_READ} and the calling tool's message.
 */
public final class Snapshots {
  private Snapshots() {}

  /** The snapshot of the document at an agent's path. */
  public static Future<DocSnapshot> read(GramContext ctx, String rawPath) {
    try {
      return read(ctx, ctx.reader().paths().document(rawPath));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
  }

  public static Future<DocSnapshot> read(GramContext ctx, VaultPath path) {
    return ctx.reader().read(path);
  }

  /** The short state hash of a revision as this snapshot has it, or {@code null} if it has none. */
  public static String revisionHash(DocSnapshot s, int rev) {
    if (s == null) {
      return null;
    }
    if (rev == s.rev() && s.hash() != null) {
      return s.shortHash();
    }
    if (s.history() != null && rev >= 0 && rev < s.history().revisions().size()) {
      return s.history().revision(rev).shortHash();
    }
    return null;
  }

  /**
   * A view of the document at {@code rev}. The current state is at hand; an older one is rebuilt
   * on the vault's I/O pool, after which the document must not have been replaced ({@code
   * STALE_READ} with {@code replacedMessage}).
   */
  public static Future<DocView> view(
      GramContext ctx, DocSnapshot s, Selectors.Point point, boolean historical, String replacedMessage) {
    if (point.effective() == null) {
      return view(ctx, s, point.rev(), historical, replacedMessage);
    }
    int rev = point.rev();
    try {
      s.requireHistory();
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
    return Async.run(ctx.reader().io(), () -> EffectiveState.at(s.history(), point.effective(), rev))
        .map(
            state -> {
              requireSameRevision(s, ctx.reader().peek(s.path()), rev, replacedMessage);
              if (state == null) {
                throw new GramException(ErrorCode.E_TIME_NOT_RECORDED, "No revision of " + s.path() + " is effective at " + Times.format(point.effective()));
              }
              return new DocView(s, rev, state, true, point.effective());
            });
  }

  public static Future<DocView> view(
      GramContext ctx, DocSnapshot s, int rev, boolean historical, String replacedMessage) {
    try {
      if (rev == s.rev()) {
        GramDocument state = s.requireState();
        if (historical) {
          s.requireHistory();
        }
        return Future.succeededFuture(new DocView(s, rev, state, historical));
      }
      s.requireHistory();
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
    return Async.run(ctx.reader().io(), () -> s.stateAt(rev))
        .map(
            state -> {
              requireSameRevision(s, ctx.reader().peek(s.path()), rev, replacedMessage);
              return new DocView(s, rev, state, historical);
            });
  }

  /**
   * {@code STALE_READ} unless {@code current} (the document as it is now; {@code null} when it is
   * gone) holds revision {@code rev} with the state {@code read} has for it.
   */
  public static void requireSameRevision(DocSnapshot read, DocSnapshot current, int rev, String message) {
    if (current == read) {
      return;
    }
    String want = revisionHash(read, rev);
    String now = revisionHash(current, rev);
    if (want == null || !want.equals(now)) {
      throw staleRead(read.path(), rev, message);
    }
  }

  /** {@code STALE_READ} naming the document as it is now, so the caller can read it again. */
  public static GramException staleRead(DocSnapshot current, String message) {
    JsonObject details = new JsonObject().put("path", current.path()).put("rev", current.rev());
    if (current.hash() != null) {
      details.put("hash", current.shortHash());
    }
    return new GramException(ErrorCode.STALE_READ, message, details);
  }

  public static GramException staleRead(String path, int rev, String message) {
    return new GramException(
        ErrorCode.STALE_READ, message, new JsonObject().put("path", path).put("rev", rev));
  }
}
