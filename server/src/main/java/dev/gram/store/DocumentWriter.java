package dev.gram.store;

import io.vertx.core.Future;

/**
 * Where writes go: one serialized actor per document. This is the seam a cluster would route
 * through (by document path), so callers depend on this interface, not on the local actors.
 */
public interface DocumentWriter {
  Future<CommitReceipt> submit(WriteCommand command);
}
