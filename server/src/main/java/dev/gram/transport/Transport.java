package dev.gram.transport;

import io.vertx.core.Future;

/** What the server asks of every transport when it shuts down. */
public interface Transport {

  /**
   * Stops taking new messages and ends long-lived streams; calls already in flight go on and
   * their answers are still delivered.
   */
  Future<Void> quiesce();
}
