package dev.gram.store;

/**
 * Told of every new state of a document: a commit, a reload after another program changed the
 * file, or a removal ({@code snapshot} null). Called on the document's actor thread, in commit
 * order, before the write's receipt is returned, so derived data (the search index) learns of a
 * write before any client can. Must be quick and must not block: the search index only queues
 * the state for its own thread.
 */
@FunctionalInterface
public interface CommitListener {
  void onChange(String path, DocSnapshot snapshot);

  /**
   * A new state made of revisions another node of a cluster committed (a follower's side of
   * replication), under the same rules as {@link #onChange}; a listener that can take such states
   * later than this node's own (the search index) tells them apart here.
   */
  default void onFollowed(String path, DocSnapshot snapshot) {
    onChange(path, snapshot);
  }
}
