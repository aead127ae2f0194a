package dev.gram.tools.spi;

import java.util.function.Consumer;

/**
 * Tells listeners of every document change. A listener is called on the committing thread before
 * the writer's receipt goes back, so it must only hand the change on (a subscriber's queue) and
 * return: a commit never waits for delivery.
 */
public interface ChangeFeed {

  /** Starts telling {@code listener}; closing the returned handle stops it. */
  Registration listen(Consumer<ResourceChange> listener);

  /** How many listeners are registered now (subscriptions alive: leak checks, metrics). */
  int listeners();

  /** Ends one listener's registration; closing twice is harmless. */
  interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
