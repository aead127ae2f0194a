package dev.gram.tools.support;

import dev.gram.format.GramDocument;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import io.vertx.core.json.JsonObject;

/**
 * One document at one revision, answered from a single snapshot: the state of that revision, and
 * the snapshot's current {@code {path, rev, hash}} (the CAS pair, which is the current one even
 * when the state read is older).
 *
 * @param historical true when the caller asked for a past revision or time (or a cursor pinned
 *     one), so the answer carries {@link #at()}
 */
public record DocView(DocSnapshot snapshot, int rev, GramDocument state, boolean historical) {

  public String path() {
    return snapshot.path();
  }

  /** The document's current CAS pair. */
  public JsonObject identity() {
    return Docs.identity(snapshot);
  }

  /** {@code {at, eff, rev}}: when the revision read was recorded and said to be effective. */
  public JsonObject at() {
    Revision r = snapshot.revisions().get(rev);
    return new JsonObject()
        .put("at", Times.format(r.recordedAt()))
        .put("eff", r.effectiveAt())
        .put("rev", rev);
  }

  /** The short state hash of the revision read, which cursors are bound to. */
  public String stateHash() {
    return Snapshots.revisionHash(snapshot, rev);
  }
}
