package dev.gram.tools.spi;

import java.util.function.Consumer;

/**
 * Tells listeners of every document change, in commit order, on one thread the feed owns (never
 * the committing thread). A listener must only hand the change on (a subscriber's queue) and
 * return, since every other listener waits behind it; a commit never waits for any of them.
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
