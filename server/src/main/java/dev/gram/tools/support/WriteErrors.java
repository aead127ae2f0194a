package dev.gram.tools.support;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.store.RequestReuseException;
import dev.gram.store.StaleRevisionException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The store's write errors in the client's terms. The store says what it found — the document as
 * it is now and the caller's base, or where a request_id was used — and this class gives it the
 * contract's {@code details}, with which an agent recovers without another read:
 *
 * <ul>
 *   <li>{@code STALE_REVISION}: {@code {path, rev, hash}}, the current CAS pair; measured from
 *       the caller's base also {@code base_revision} and what changed since it — ids {@code
 *       added}, {@code changed} and {@code removed} (the owner as {@code doc}), {@code by} whom,
 *       and the last 20 {@code revisions} as {@code [rev, by, recorded_at, counts]};
 *   <li>{@code E_REQUEST_REUSE}: {@code {path, revision}}, where the id was used ({@code
 *       revision} left out while that write is in flight).
 * </ul>
 *
 * <p>Code and message stay the store's. Every other failure passes through unchanged.
 */
public final class WriteErrors {
  private WriteErrors() {}

  /** Revisions listed in a STALE_REVISION answer, newest last. */
  static final int REVISIONS_SHOWN = 20;

  /** {@code failure} as the client sees it. */
  public static Throwable forClient(Throwable failure) {
    if (failure instanceof StaleRevisionException e) {
      JsonObject details =
          e.baseRevision() == null ? current(e.current()) : whatChanged(e.current(), e.baseRevision());
      return new GramException(ErrorCode.STALE_REVISION, e.getMessage(), details);
    }
    if (failure instanceof RequestReuseException e) {
      JsonObject details = new JsonObject();
      if (e.usedPath() != null) {
        details.put("path", e.usedPath());
        if (e.usedRevision() != null) {
          details.put("revision", e.usedRevision());
        }
      }
      return new GramException(ErrorCode.E_REQUEST_REUSE, e.getMessage(), details);
    }
    return failure;
  }

  /** The current CAS pair, for errors that send the caller back to read. */
  static JsonObject current(DocSnapshot s) {
    JsonObject d = new JsonObject();
    if (s != null) {
      d.put("path", s.path()).put("rev", s.rev()).put("hash", s.shortHash());
    }
    return d;
  }

  /**
   * The current rev and hash, and what changed since the caller's base — ids added, changed and
   * removed, by whom, revision by revision.
   */
  static JsonObject whatChanged(DocSnapshot s, int base) {
    JsonObject d = current(s).put("base_revision", base);
    if (s == null || s.history() == null || base < 0 || base >= s.rev()) {
      return d;
    }
    Set<String> added = new LinkedHashSet<>();
    Set<String> changed = new LinkedHashSet<>();
    Set<String> removed = new LinkedHashSet<>();
    Set<String> by = new LinkedHashSet<>();
    JsonArray revisions = new JsonArray();
    List<Revision> revs = s.history().revisions();
    for (int i = base + 1; i < revs.size(); i++) {
      Revision r = revs.get(i);
      by.add(r.by());
      for (Revision.Change c : r.changes()) {
        String id = c.id().equals(s.state() == null ? null : s.state().id()) ? "doc" : c.id();
        switch (c.kind()) {
          case ADD -> added.add(id);
          case SET -> {
            if (!added.contains(id)) {
              changed.add(id);
            }
          }
          case DEL -> {
            if (!added.remove(id)) {
              removed.add(id);
            }
            changed.remove(id);
          }
        }
      }
      if (revs.size() - i <= REVISIONS_SHOWN) {
        revisions.add(
            new JsonArray().add(r.rev()).add(r.by()).add(Times.format(r.recordedAt())).add(r.countSummary()));
      }
    }
    return d.put("added", new JsonArray(new ArrayList<>(added)))
        .put("changed", new JsonArray(new ArrayList<>(changed)))
        .put("removed", new JsonArray(new ArrayList<>(removed)))
        .put("by", new JsonArray(new ArrayList<>(by)))
        .put("revisions", revisions);
  }
}
