package dev.gram.testing;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw newline-delimited JSON-RPC client for a server's stdin/stdout, for tests that need to see
 * the wire (modern {@code _meta} requests, malformed input, notifications, stdout purity). Every
 * line the server writes is kept in {@link #lines()}; answers are matched to requests by id.
 */
public final class StdioClient {
  public static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final OutputStream in;
  private final Map<Object, CompletableFuture<JsonObject>> waiting = new ConcurrentHashMap<>();
  private final LinkedBlockingQueue<JsonObject> notifications = new LinkedBlockingQueue<>();
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final boolean keepLines;
  private final AtomicLong ids = new AtomicLong();
  private final CompletableFuture<Void> eof = new CompletableFuture<>();

  public StdioClient(OutputStream serverStdin, InputStream serverStdout) {
    this(serverStdin, serverStdout, true);
  }

  /** @param keepLines false for long runs (benchmarks) that need no record of the wire */
  public StdioClient(OutputStream serverStdin, InputStream serverStdout, boolean keepLines) {
    this.in = serverStdin;
    this.keepLines = keepLines;
    Thread reader = new Thread(() -> read(serverStdout), "stdio-client-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private void read(InputStream out) {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (keepLines) {
          lines.add(line);
        }
        JsonObject msg;
        try {
          msg = new JsonObject(line);
        } catch (RuntimeException e) {
          continue; // lines() keeps it, for tests asserting stdout purity
        }
        if (msg.containsKey("method") || msg.getValue("id") == null) {
          notifications.add(msg); // notifications, and errors about unreadable messages
        } else {
          CompletableFuture<JsonObject> f = waiting.remove(key(msg.getValue("id")));
          if (f != null) {
            f.complete(msg);
          } else {
            notifications.add(msg); // unmatched answers (null id errors) are visible here
          }
        }
      }
    } catch (IOException e) {
      // stream closed
    }
    eof.complete(null);
  }

  private static Object key(Object id) {
    return id instanceof Number n ? (Object) n.longValue() : id;
  }

  /** Sends a request and waits for its answer (the whole JSON-RPC response). */
  public JsonObject request(String method, JsonObject params) {
    return send(method, params).join();
  }

  /** Sends a request; the future completes with its answer. */
  public CompletableFuture<JsonObject> send(String method, JsonObject params) {
    String id = "t-" + ids.incrementAndGet();
    return send(id, method, params);
  }

  public CompletableFuture<JsonObject> send(Object id, String method, JsonObject params) {
    return send(id, method, params, TIMEOUT);
  }

  /** As {@link #send(Object, String, JsonObject)}, waiting at most {@code timeout} (long runs on a busy machine). */
  public CompletableFuture<JsonObject> send(Object id, String method, JsonObject params, Duration timeout) {
    CompletableFuture<JsonObject> f = new CompletableFuture<>();
    waiting.put(key(id), f);
    JsonObject msg = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    if (params != null) {
      msg.put("params", params);
    }
    raw(msg.encode());
    return f.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public void notify(String method, JsonObject params) {
    JsonObject msg = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    if (params != null) {
      msg.put("params", params);
    }
    raw(msg.encode());
  }

  /** Writes one line as it is (no validation): for malformed-input tests. */
  public synchronized void raw(String line) {
    try {
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The next notification (or unmatched message) from the server, or null after the timeout. */
  public JsonObject nextNotification(Duration timeout) {
    try {
      return notifications.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Every line the server wrote to stdout so far. */
  public List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** Completes when the server closes its stdout. */
  public CompletableFuture<Void> eof() {
    return eof;
  }

  /** Legacy handshake: {@code initialize} then {@code notifications/initialized}. */
  public JsonObject initialize(String clientName, String protocolVersion) {
    JsonObject answer =
        request(
            "initialize",
            new JsonObject()
                .put("protocolVersion", protocolVersion)
                .put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", clientName).put("version", "1")));
    notify("notifications/initialized", null);
    return answer;
  }

  /** Params carrying the 2026-07-28 per-request {@code _meta}, naming the client. */
  public static JsonObject modern(String clientName) {
    return new JsonObject().put("_meta", modernMeta(clientName));
  }

  public static JsonObject modernMeta(String clientName) {
    JsonObject meta =
        new JsonObject()
            .put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
            .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    if (clientName != null) {
      meta.put(
          "io.modelcontextprotocol/clientInfo",
          new JsonObject().put("name", clientName).put("version", "1"));
    }
    return meta;
  }

  /** Closes the server's stdin: the server then finishes and exits. */
  public void closeInput() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void closeQuietly() {
    try {
      in.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
