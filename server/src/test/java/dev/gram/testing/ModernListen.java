package dev.gram.testing;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw 2026-07-28 {@code subscriptions/listen} over HTTP: the POST's SSE stream read on a thread
 * of its own into a queue of messages, as a client without an SDK would. {@link #stalled} opens one
 * that never reads, the slow client a writer must not wait for.
 */
public final class ModernListen implements AutoCloseable {
  private final InputStream body;
  private final BlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
  private final int status;

  private ModernListen(HttpResponse<InputStream> response, boolean read) {
    this.status = response.statusCode();
    this.body = response.body();
    if (read) {
      Thread t = new Thread(this::read, "listen-reader");
      t.setDaemon(true);
      t.start();
    }
  }

  /** Opens a listen with this filter ({@code notifications}) and starts reading it. */
  public static ModernListen open(URI mcp, Object id, JsonObject filter) {
    return new ModernListen(send(mcp, id, filter), true);
  }

  /** Opens a listen whose stream is never read. */
  public static ModernListen stalled(URI mcp, Object id, JsonObject filter) {
    return new ModernListen(send(mcp, id, filter), false);
  }

  private static HttpResponse<InputStream> send(URI mcp, Object id, JsonObject filter) {
    JsonObject params =
        new JsonObject()
            .put("notifications", filter)
            .put("_meta", StdioClient.modernMeta("raw-listener"));
    JsonObject body =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", id)
            .put("method", "subscriptions/listen")
            .put("params", params);
    HttpRequest req =
        HttpRequest.newBuilder(mcp)
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "subscriptions/listen")
            .build();
    try {
      return Http.client().send(req, HttpResponse.BodyHandlers.ofInputStream());
    } catch (Exception e) {
      throw new AssertionError("listen failed: " + e, e);
    }
  }

  public int status() {
    return status;
  }

  private void read() {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("data: ")) {
          messages.add(new JsonObject(line.substring(6)));
        }
      }
    } catch (Exception e) {
      // closed
    }
  }

  /** The next message within {@code timeout}, or null. */
  public JsonObject next(Duration timeout) throws InterruptedException {
    return messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The next message of {@code method} within {@code timeout}, skipping others; or null. */
  public JsonObject next(String method, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return null;
      }
      JsonObject m = messages.poll(left, TimeUnit.NANOSECONDS);
      if (m == null) {
        return null;
      }
      if (method.equals(m.getString("method"))) {
        return m;
      }
    }
  }

  @Override
  public void close() {
    try {
      body.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
