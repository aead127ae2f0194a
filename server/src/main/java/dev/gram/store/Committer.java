package dev.gram.store;

import dev.gram.format.Revision;
import io.vertx.core.Future;
import java.io.IOException;
import java.util.List;

/**
 * The last steps of a commit, once the actor has built the revision: make it durable and final,
 * then let whoever must hold it hear of it. On one node that is the log alone ({@link
 * LogCommitter}); a cluster wraps it ({@link ReplicatingCommitter}) to fence the document's head
 * and hand each revision to the other nodes. The actor calls the same steps either way.
 */
interface Committer {
  /** The fsync that would have made a revision durable failed: the revision is void, the outcome unknown to the client. */
  final class NotDurable extends IOException {
    NotDurable(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /**
   * Makes {@code rev}, the revision after {@code head}, durable and final. Returns false when
   * another writer of the document committed after {@code head} first: {@code rev} is void then.
   *
   * @throws NotDurable when its fsync failed
   * @throws IOException when it could not be written (nothing was)
   */
  boolean commit(String path, Revision head, Revision rev) throws IOException;

  /**
   * After {@code rev} is published: completes once everyone who must hold it does (its receipt
   * waits), with true when every one of them took it.
   */
  default Future<Boolean> heard(String path, Revision rev) {
    return Future.succeededFuture(true);
  }

  /** Revisions after {@code rev} that other writers of the document hold (none on one node). */
  default List<Revision> newerThan(String path, int rev) {
    return List.of();
  }
}
