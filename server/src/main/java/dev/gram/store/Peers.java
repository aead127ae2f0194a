package dev.gram.store;

import dev.gram.format.Revision;
import io.vertx.core.Future;
import java.util.List;

/**
 * The other nodes of a cluster serving the same vault, as the store needs them: told of each
 * commit before its receipt is returned, and asked for revisions the shared files do not hold
 * yet ({@link ReplicatingCommitter} calls them). {@link #newerThan} and {@link #advance} run on a
 * document's actor thread and may block, for a bounded time.
 */
public interface Peers {
  /**
   * Hands a committed revision to every other node; completes once each has it or gave no
   * answer in time, and only then is the receipt returned: a client holding it reads the
   * revision from any node that answered. Completes with true when every other node took it.
   * Must not block: the document's actor holds its mailbox until it completes, without a thread.
   */
  Future<Boolean> replicate(String path, Revision revision);

  /**
   * The revisions after {@code rev} that another node holds (the longest answer of all of
   * them: a node that has just joined may already own the document); empty when none does or
   * none can say.
   */
  List<Revision> newerThan(String path, int rev);

  /**
   * Moves the document's head, as the whole cluster knows it, from {@code from} to {@code to};
   * false when another node has already committed a revision after {@code from}. Called after
   * the revision is durable in this node's log and before anyone is told of it, so two nodes
   * that both believe they own a document for a moment (a partition moving) cannot both commit
   * on one base.
   */
  boolean advance(String path, Revision from, Revision to);
}
