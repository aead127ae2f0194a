package dev.gram.store;

/**
 * A claim on request ids that every node of a cluster sees, so that one id keeps one intent
 * across nodes. It follows {@link Idempotency}'s one release rule: a claim is released exactly
 * when its write did not commit. A single node needs none ({@link #NONE}).
 */
public interface RequestClaims {
  RequestClaims NONE = new RequestClaims() {};

  /**
   * Claims {@code requestId} for a write to {@code path}; returns the path it was already
   * claimed for, or null when the claim is this write's. Runs on the document's actor thread and
   * may block briefly.
   */
  default String claim(String requestId, String path) {
    return null;
  }

  /** Frees a claim whose write did not commit. */
  default void release(String requestId) {}

  /**
   * Lets go of the claim of a committed id once every node holds its revision (each node's own
   * index then answers for it), so that claims do not pile up for their whole life under a steady
   * stream of writes. May wait to do so in batches.
   */
  default void settled(String requestId) {}
}
