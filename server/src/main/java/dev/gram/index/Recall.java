package dev.gram.index;

import io.vertx.core.Future;

/**
 * Searches the index for {@code gram_recall}.
 *
 * <p>Read-your-writes is part of the contract: an answer includes every write whose commit
 * receipt was returned before {@link #recall} was called, whichever client wrote it. The search
 * itself runs off the caller's thread; the returned future completes on the caller's Vert.x
 * context.
 */
public interface Recall {
  Future<RecallResult> recall(RecallRequest request);
}
