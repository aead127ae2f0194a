package dev.gram.tools.support;

import dev.gram.format.EffectiveState;
import dev.gram.format.GramDocument;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * One document at one revision, answered from a single snapshot: the state of that revision (or,
 * for an effective-time read, the state as of that time as recorded up to it), and the snapshot's
 * current {@code {path, rev, hash}} (the CAS pair, which is the current one even when the state
 * read is older).
 *
 * @param historical true when the caller asked for a past revision or time (or a cursor pinned
 *     one), so the answer carries {@link #at()}
 * @param effective the effective time read, or {@code null} for a revision as written
 */
public record DocView(DocSnapshot snapshot, int rev, GramDocument state, boolean historical, Instant effective) {

  public DocView(DocSnapshot snapshot, int rev, GramDocument state, boolean historical) {
    this(snapshot, rev, state, historical, null);
  }

  public String path() {
    return snapshot.path();
  }

  /** The document's current CAS pair. */
  public JsonObject identity() {
    return Docs.identity(snapshot);
  }

  /**
   * {@code {at, eff, rev}}: when the revision read was recorded and said to be effective. For an
   * effective-time read, that revision is the latest-recorded one effective at that time, the
   * last whose facts the state shows.
   */
  public JsonObject at() {
    Revision r = snapshot.revisions().get(rev);
    if (effective != null) {
      List<Revision> effectiveThen = EffectiveState.effectiveRevisions(snapshot.history(), effective, rev);
      r = effectiveThen.get(effectiveThen.size() - 1);
    }
    return new JsonObject()
        .put("at", Times.format(r.recordedAt()))
        .put("eff", r.effectiveAt())
        .put("rev", r.rev());
  }

  /** The short state hash of the revision read, which cursors are bound to. */
  public String stateHash() {
    return Snapshots.revisionHash(snapshot, rev);
  }
}
