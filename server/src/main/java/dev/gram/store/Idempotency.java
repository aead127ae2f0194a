package dev.gram.store;

import dev.gram.edit.PatchEngine;
import dev.gram.format.History;
import dev.gram.format.Revision;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that decides what a request_id means. One id belongs to one intent (a path and
 * a request digest) across the whole vault, and on a cluster across every node: a patch whose id
 * was committed with the same intent gets its original receipt again; with another intent,
 * {@code E_REQUEST_REUSE}; a new id is reserved while its write is in flight.
 *
 * <p>One release rule: an id is released exactly when its write did not commit, whether it was
 * refused, failed, or its fsync failed (its log record is then void and a retry commits anew). The
 * histories are the durable store of committed ids ({@link RequestIndex} is rebuilt from them);
 * a cluster adds a claim every node sees ({@link RequestClaims}) under the same rule. A committed
 * id's claim has done its work once every node holds the revision, since each node's own index
 * then knows the id: it is let go then ({@link #heldEverywhere}), or after an hour when some node
 * did not take the revision.
 *
 * <p>The receipt a retry gets is the original one: its revision, hash and created records from
 * the history, and its diagnostics by running the same operations again on the same base state
 * (the patch engine is a pure function of them).
 */
final class Idempotency {
  private final RequestIndex index = new RequestIndex();
  private final PatchEngine engine;
  private final PatchEngine.Context context;
  private volatile RequestClaims claims = RequestClaims.NONE;
  /** Ids this node claimed cluster-wide for a write in flight: released if it does not commit. */
  private final java.util.Set<String> claimedHere = java.util.concurrent.ConcurrentHashMap.newKeySet();

  Idempotency(PatchEngine engine, PatchEngine.Context context) {
    this.engine = engine;
    this.context = context;
  }

  void useClaims(RequestClaims c) {
    claims = c == null ? RequestClaims.NONE : c;
  }

  /**
   * Before a patch of {@code s}: the original receipt when {@code p} repeats a committed write;
   * {@code E_REQUEST_REUSE} when its id means another intent; null when it is new, and then
   * reserved until {@link #committed} or {@link #notCommitted}.
   */
  CommitReceipt begin(DocSnapshot s, WriteCommand.Patch p) {
    String path = s.path();
    RequestIndex.Entry used = index.lookup(p.requestId());
    if (used != null) {
      if (!used.inFlight() && used.path().equals(path) && s.history() != null && used.rev() <= s.rev()
          && p.digest().equals(s.history().revision(used.rev()).digest())) {
        return originalReceipt(s, used.rev(), p);
      }
      throw reuse(used);
    }
    if (!index.reserve(p.requestId(), path)) {
      throw reuse(index.lookup(p.requestId()));
    }
    String elsewhere;
    try {
      elsewhere = claims.claim(p.requestId(), path);
    } catch (RuntimeException e) {
      index.release(p.requestId(), path);
      throw e;
    }
    if (elsewhere == null) {
      claimedHere.add(p.requestId());
    } else if (!elsewhere.equals(path)) {
      // Claimed on another node for another document, where it may not have committed yet.
      index.release(p.requestId(), path);
      throw new RequestReuseException(RequestReuseException.MESSAGE, elsewhere, null);
    }
    return null;
  }

  /** The write reserved by {@link #begin} did not commit: its id is free again. */
  void notCommitted(String requestId, String path) {
    index.release(requestId, path);
    if (claimedHere.remove(requestId)) {
      claims.release(requestId);
    }
  }

  void committed(String requestId, String path, int rev) {
    index.committed(requestId, path, rev);
    claimedHere.remove(requestId);
  }

  /** Every node holds the committed revision of {@code requestId}: its claim is no longer needed. */
  void heldEverywhere(String requestId) {
    claims.settled(requestId);
  }

  /** What a document read from its file says of its ids (its history replaces what was known). */
  void indexDocument(String path, History history) {
    index.indexDocument(path, history);
  }

  private CommitReceipt originalReceipt(DocSnapshot s, int revNumber, WriteCommand.Patch p) {
    Revision r = s.requireHistory().revision(revNumber);
    List<String> created = new ArrayList<>();
    for (Revision.Change c : r.changes()) {
      if (c.kind() == Revision.Kind.ADD && !c.type().equals("document")) {
        created.add(c.id());
      }
    }
    JsonArray diagnostics = new JsonArray();
    if (revNumber > 0) {
      try {
        PatchEngine.Outcome again = engine.apply(s.stateAt(revNumber - 1), p.operations(), context);
        diagnostics = again.diagnostics();
        created = again.created();
      } catch (RuntimeException e) {
        // The same operations on the same state applied once; if they no longer do (another
        // document they name is gone), the history's record of what was created still answers.
      }
    }
    return new CommitReceipt(s.path(), revNumber, r.shortHash(), created, p.requestId(), diagnostics, true);
  }

  private static RequestReuseException reuse(RequestIndex.Entry used) {
    return new RequestReuseException(
        RequestReuseException.MESSAGE,
        used == null ? null : used.path(),
        used == null || used.inFlight() ? null : used.rev());
  }
}
