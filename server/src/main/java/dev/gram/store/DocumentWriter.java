package dev.gram.store;

import io.vertx.core.Future;

/**
 * Where writes go: one serialized actor per document. This is the seam a cluster would route
 * through (by {@link WriteCommand#path()}), so callers depend on this interface, not on the local
 * actors; {@link DocumentReader} is its read side.
 *
 * <p>A write that loses a race fails with a typed {@link dev.gram.base.GramException}: {@link
 * StaleRevisionException} (the document moved, or a create found one) and {@link
 * RequestReuseException} (the request_id belongs to another intent) carry the facts the caller
 * needs to recover, for the tools to put in the client's terms.
 */
public interface DocumentWriter {
  Future<CommitReceipt> submit(WriteCommand command);
}
