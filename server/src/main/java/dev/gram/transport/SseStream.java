package dev.gram.transport;

import dev.gram.protocol.Outbound;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * One Server-Sent Events response. Headers go out with the first event, so an answer that turns
 * out to be a plain error can still be sent as JSON with its own status. A comment line every
 * {@code keepAliveMs} keeps quiet streams from hitting idle timeouts. Safe to use from any thread:
 * Vert.x hands writes to the connection's event loop.
 */
final class SseStream implements Outbound {
  private final Vertx vertx;
  private final io.vertx.core.Context context;
  private final HttpServerResponse response;
  private final long keepAliveMs;
  private long timer = -1;
  private boolean started;
  private boolean ended;

  SseStream(Vertx vertx, HttpServerResponse response, long keepAliveMs) {
    this.vertx = vertx;
    // Made on the request's event loop: the connection's own thread.
    this.context = vertx.getOrCreateContext();
    this.response = response;
    this.keepAliveMs = keepAliveMs;
  }

  synchronized boolean started() {
    return started;
  }

  synchronized boolean ended() {
    return ended || response.ended() || response.closed();
  }

  /** Sends the headers now, with a comment, for streams that may stay quiet for a long time. */
  synchronized void open() {
    start();
    if (!ended()) {
      response.write(": open\n\n");
    }
  }

  private void start() {
    if (started) {
      return;
    }
    started = true;
    response
        .setStatusCode(200)
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    if (keepAliveMs > 0) {
      timer =
          vertx.setPeriodic(
              keepAliveMs,
              id -> {
                synchronized (this) {
                  if (ended()) {
                    vertx.cancelTimer(id);
                  } else {
                    response.write(":\n\n");
                  }
                }
              });
    }
  }

  synchronized void event(String name, String data) {
    if (ended()) {
      return;
    }
    start();
    StringBuilder sb = new StringBuilder();
    if (name != null) {
      sb.append("event: ").append(name).append('\n');
    }
    sb.append("data: ").append(data).append("\n\n");
    response.write(sb.toString());
  }

  void message(JsonObject message) {
    event("message", message.encode());
  }

  /** One message already JSON text (compact: no raw newline to break the event). */
  void message(String json) {
    event("message", json);
  }

  /** Several messages, already JSON text, as one chunk: one write and one flush for all. */
  @Override
  public synchronized void sendEncoded(java.util.List<String> messages) {
    if (ended() || messages.isEmpty()) {
      return;
    }
    start();
    int size = 0;
    for (String m : messages) {
      size += m.length() + 24;
    }
    StringBuilder sb = new StringBuilder(size);
    for (String m : messages) {
      sb.append("event: message\ndata: ").append(m).append("\n\n");
    }
    response.write(sb.toString());
  }

  @Override
  public void accept(JsonObject message) {
    message(message);
  }

  @Override
  public java.util.concurrent.Executor executor() {
    return task -> context.runOnContext(v -> task.run());
  }

  /** The connection has more queued than Vert.x wants to buffer: the client is not reading. */
  @Override
  public boolean congested() {
    return !ended() && response.writeQueueFull();
  }

  synchronized void end() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (!ended()) {
      ended = true;
      if (!started) {
        response.setStatusCode(204);
      }
      response.end();
    }
    ended = true;
  }
}
