package dev.gram.protocol;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Where a transport sends the messages nobody asked for in a reply: progress, a subscription's
 * notifications. {@link #congested} lets a subscription hold back while the client does not read:
 * what it has not sent yet coalesces in its own bounded queue instead of piling up in the
 * transport's buffers.
 */
@FunctionalInterface
public interface Outbound extends Consumer<JsonObject> {

  /** True while the transport has more queued for the client than it wants to hold. */
  default boolean congested() {
    return false;
  }

  /**
   * Where sending is cheapest, or null for any worker thread. An HTTP stream names its
   * connection's event loop: a write from there goes straight to the socket instead of being handed
   * over from another thread.
   */
  default Executor executor() {
    return null;
  }

  /**
   * Sends messages already encoded as JSON text, in this order, as one write where the transport
   * can (one SSE chunk, one flush of stdout). A subscription encodes a change's notification once
   * for all its subscribers and hands each its text this way. The default decodes each message
   * and {@linkplain #accept accepts} it.
   */
  default void sendEncoded(java.util.List<String> messages) {
    for (String m : messages) {
      accept(new JsonObject(m));
    }
  }

  /** An outbound for a plain consumer, never congested. */
  static Outbound of(Consumer<JsonObject> consumer) {
    return consumer instanceof Outbound o ? o : consumer::accept;
  }
}
