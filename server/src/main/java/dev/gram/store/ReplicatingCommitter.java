package dev.gram.store;

import dev.gram.format.Revision;
import io.vertx.core.Future;
import java.io.IOException;
import java.util.List;

/**
 * A commit on a cluster node: this node's log first ({@link LogCommitter}), then the document's
 * head moved for the whole cluster before anyone hears of the revision ({@link
 * Peers#advance}), and the revision handed to every other node before its receipt ({@link
 * Peers#replicate}). Two nodes that both believe they own a document for a moment (a
 * partition moving) cannot both commit on one base: the loser's record is cancelled.
 */
final class ReplicatingCommitter implements Committer {
  private final LogCommitter log;
  private final Peers peers;

  ReplicatingCommitter(LogCommitter log, Peers peers) {
    this.log = log;
    this.peers = peers;
  }

  /** The committer this one wraps: what is left when the node leaves the cluster. */
  LogCommitter local() {
    return log;
  }

  @Override
  public boolean commit(String path, Revision head, Revision rev) throws IOException {
    long seq = log.durable(path, rev);
    boolean advanced;
    try {
      advanced = peers.advance(path, head, rev);
    } catch (RuntimeException e) {
      log.cancel(path, seq); // refused to the caller, so it must never replay
      throw e;
    }
    if (!advanced) {
      log.cancel(path, seq);
    }
    return advanced;
  }

  @Override
  public Future<Boolean> heard(String path, Revision rev) {
    return peers.replicate(path, rev);
  }

  @Override
  public List<Revision> newerThan(String path, int rev) {
    return peers.newerThan(path, rev);
  }
}
