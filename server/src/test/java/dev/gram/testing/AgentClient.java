package dev.gram.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * One agent's MCP connection with its own credential, on any transport and in either era, spoken
 * in raw JSON-RPC so that tests see exactly what went over the wire: a legacy Streamable HTTP
 * session (with its GET stream for notifications), stateless 2026-07-28 requests, the 2024-11-05
 * HTTP+SSE transport, or stdio. {@link #request} answers the whole JSON-RPC response; {@link
 * #notifications} holds what the server sent unasked.
 */
public abstract class AgentClient implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(20);
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  protected final String clientName;
  protected final AtomicLong ids = new AtomicLong();
  public final BlockingQueue<JsonObject> notifications = new LinkedBlockingQueue<>();

  AgentClient(String clientName) {
    this.clientName = clientName;
  }

  /** What this connection is, for assertion messages. */
  public abstract String describe();

  /** The legacy session's id, or null when the transport has none. */
  public String sessionId() {
    return null;
  }

  /** Sends one request and returns the whole JSON-RPC response. */
  public abstract JsonObject request(String method, JsonObject params);

  /** Opens whatever carries notifications (a GET stream, a listen request) watching {@code uris}. */
  public abstract void subscribe(java.util.List<String> uris);

  /** The next notification of {@code method}, or null after the timeout. */
  public JsonObject next(String method, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = end - System.nanoTime();
      JsonObject n = notifications.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
      if (n == null || method.equals(n.getString("method"))) {
        return n;
      }
    }
  }

  @Override
  public void close() {}

  /** The legacy era's way: one {@code resources/subscribe} per URI. */
  void subscribeEach(java.util.List<String> uris) {
    for (String uri : uris) {
      JsonObject answer = request("resources/subscribe", new JsonObject().put("uri", uri));
      if (answer.containsKey("error")) {
        throw new AssertionError("subscribe " + uri + ": " + answer.encode());
      }
    }
  }

  static String bearer(String token) {
    return "Bearer " + token;
  }

  /** Reads an SSE body line by line on its own thread, handing each data payload to {@code sink}. */
  static void readEvents(Stream<String> lines, java.util.function.BiConsumer<String, String> sink) {
    Thread t = new Thread(() -> {
      String event = "message";
      StringBuilder data = new StringBuilder();
      try {
        for (String line : (Iterable<String>) lines::iterator) {
          if (line.isEmpty()) {
            if (data.length() > 0) {
              sink.accept(event, data.toString());
            }
            event = "message";
            data.setLength(0);
          } else if (line.startsWith("event:")) {
            event = line.substring(6).strip();
          } else if (line.startsWith("data:")) {
            data.append(line.substring(5).strip());
          }
        }
      } catch (RuntimeException e) {
        // the stream ended
      }
    }, "sse-reader");
    t.setDaemon(true);
    t.start();
  }

  static HttpResponse<String> send(HttpRequest r) {
    try {
      return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static JsonObject message(HttpResponse<String> r) {
    String body = r.body().strip();
    if (body.startsWith("{")) {
      return new JsonObject(body);
    }
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        JsonObject m = new JsonObject(line.substring(5).strip());
        if (m.containsKey("id")) {
          return m;
        }
      }
    }
    throw new AssertionError("no JSON-RPC answer (HTTP " + r.statusCode() + "): " + body);
  }

  // ------------------------------------------------------------------ Streamable HTTP, legacy

  /** A legacy Streamable HTTP session: initialize, then every request names the session. */
  public static AgentClient legacyHttp(URI mcp, String token, String clientName) {
    return new LegacyHttp(mcp, token, clientName);
  }

  static final class LegacyHttp extends AgentClient {
    private final URI mcp;
    private final String token;
    private final String session;

    LegacyHttp(URI mcp, String token, String clientName) {
      super(clientName);
      this.mcp = mcp;
      this.token = token;
      HttpResponse<String> init = send(post(null, new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
          .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
              .put("clientInfo", new JsonObject().put("name", clientName).put("version", "1")))));
      if (init.statusCode() != 200) {
        throw new AssertionError("initialize answered HTTP " + init.statusCode() + ": " + init.body());
      }
      session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      send(post(session, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized")));
    }

    private HttpRequest post(String session, JsonObject body) {
      HttpRequest.Builder b = HttpRequest.newBuilder(mcp).timeout(TIMEOUT)
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
      if (token != null) {
        b.header("Authorization", bearer(token));
      }
      if (session != null) {
        b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
      }
      return b.build();
    }

    @Override
    public String sessionId() {
      return session;
    }

    @Override
    public String describe() {
      return "Streamable HTTP session (2025-06-18) as " + clientName;
    }

    @Override
    public JsonObject request(String method, JsonObject params) {
      return message(send(post(session, new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
          .put("method", method).put("params", params))));
    }

    @Override
    public void subscribe(java.util.List<String> uris) {
      HttpRequest.Builder b = HttpRequest.newBuilder(mcp).GET().header("Accept", "text/event-stream")
          .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
      if (token != null) {
        b.header("Authorization", bearer(token));
      }
      HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines())
          .thenAccept(r -> readEvents(r.body(), (event, data) -> notifications.add(new JsonObject(data))));
      subscribeEach(uris);
    }
  }

  // ------------------------------------------------------------------ Streamable HTTP, 2026-07-28

  /** Stateless 2026-07-28 requests: each carries its own {@code _meta} and the token. */
  public static AgentClient modernHttp(URI mcp, String token, String clientName) {
    return new ModernHttp(mcp, token, clientName);
  }

  static final class ModernHttp extends AgentClient {
    private final URI mcp;
    private final String token;

    ModernHttp(URI mcp, String token, String clientName) {
      super(clientName);
      this.mcp = mcp;
      this.token = token;
    }

    private HttpRequest post(String method, JsonObject params, Object id, String accept) {
      JsonObject p = params.copy().put("_meta", StdioClient.modernMeta(clientName));
      HttpRequest.Builder b = HttpRequest.newBuilder(mcp).timeout(Duration.ofMinutes(2))
          .header("Content-Type", "application/json").header("Accept", accept)
          .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method)
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", id)
              .put("method", method).put("params", p).encode()));
      Object named = "resources/read".equals(method) ? p.getValue("uri") : p.getValue("name");
      if (named instanceof String name && !method.equals("subscriptions/listen")) {
        // Names outside visible ASCII travel base64-encoded, as the 2026-07-28 headers allow.
        b.header("Mcp-Name", name.matches("[\\x20-\\x7e]*") ? name
            : "=?base64?" + java.util.Base64.getEncoder().encodeToString(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "?=");
      }
      if (token != null) {
        b.header("Authorization", bearer(token));
      }
      return b.build();
    }

    @Override
    public String describe() {
      return "Streamable HTTP, stateless 2026-07-28, as " + clientName;
    }

    @Override
    public JsonObject request(String method, JsonObject params) {
      return message(send(post(method, params, ids.incrementAndGet(), "application/json, text/event-stream")));
    }

    @Override
    public void subscribe(java.util.List<String> uris) {
      JsonObject filter = new JsonObject().put("resourceSubscriptions", new io.vertx.core.json.JsonArray(uris))
          .put("resourcesListChanged", true);
      CompletableFuture<Void> acknowledged = new CompletableFuture<>();
      HTTP.sendAsync(post("subscriptions/listen", new JsonObject().put("notifications", filter), "listen-" + ids.incrementAndGet(),
              "text/event-stream, application/json"), HttpResponse.BodyHandlers.ofLines())
          .thenAccept(r -> readEvents(r.body(), (event, data) -> {
            JsonObject m = new JsonObject(data);
            if ("notifications/subscriptions/acknowledged".equals(m.getString("method"))) {
              acknowledged.complete(null);
            } else {
              notifications.add(m);
            }
          }));
      acknowledged.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }
  }

  // ------------------------------------------------------------------ HTTP+SSE, 2024-11-05

  /** The 2024-11-05 HTTP+SSE transport: a GET stream, and POSTs answered on it. */
  public static AgentClient sse(URI base, String token, String clientName) {
    return new Sse(base, token, clientName);
  }

  static final class Sse extends AgentClient {
    private final URI base;
    private final String token;
    private final CompletableFuture<String> endpoint = new CompletableFuture<>();
    private final Map<Object, CompletableFuture<JsonObject>> waiting = new ConcurrentHashMap<>();

    Sse(URI base, String token, String clientName) {
      super(clientName);
      this.base = base;
      this.token = token;
      HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve("/sse")).GET().header("Accept", "text/event-stream");
      if (token != null) {
        b.header("Authorization", bearer(token));
      }
      HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> {
        if (r.statusCode() != 200) {
          endpoint.completeExceptionally(new AssertionError("GET /sse answered HTTP " + r.statusCode()));
          return;
        }
        readEvents(r.body(), (event, data) -> {
          if ("endpoint".equals(event)) {
            endpoint.complete(data);
            return;
          }
          JsonObject m = new JsonObject(data);
          CompletableFuture<JsonObject> f = m.containsKey("id") ? waiting.remove(m.getValue("id").toString()) : null;
          if (f != null) {
            f.complete(m);
          } else {
            notifications.add(m);
          }
        });
      });
      request("initialize", new JsonObject().put("protocolVersion", "2024-11-05").put("capabilities", new JsonObject())
          .put("clientInfo", new JsonObject().put("name", clientName).put("version", "1")));
      post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    }

    private HttpResponse<String> post(JsonObject body) {
      String path = endpoint.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
      HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.encode()));
      if (token != null) {
        b.header("Authorization", bearer(token));
      }
      return send(b.build());
    }

    @Override
    public String describe() {
      return "HTTP+SSE (2024-11-05) as " + clientName;
    }

    @Override
    public JsonObject request(String method, JsonObject params) {
      long id = ids.incrementAndGet();
      CompletableFuture<JsonObject> f = new CompletableFuture<>();
      waiting.put(Long.toString(id), f);
      HttpResponse<String> r = post(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method)
          .put("params", params));
      if (r.statusCode() != 202) {
        throw new AssertionError("POST answered HTTP " + r.statusCode() + ": " + r.body());
      }
      return f.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }

    @Override
    public void subscribe(java.util.List<String> uris) {
      subscribeEach(uris);
    }
  }

  // ------------------------------------------------------------------ stdio

  /** stdio in either era: {@code modern} sends 2026-07-28 {@code _meta} instead of a handshake. */
  public static AgentClient stdio(StdioClient stdio, String clientName, boolean modern) {
    return new Stdio(stdio, clientName, modern);
  }

  static final class Stdio extends AgentClient {
    private final StdioClient stdio;
    private final boolean modern;

    Stdio(StdioClient stdio, String clientName, boolean modern) {
      super(clientName);
      this.stdio = stdio;
      this.modern = modern;
    }

    @Override
    public String describe() {
      return "stdio (" + (modern ? "2026-07-28" : "legacy") + ") as " + clientName;
    }

    @Override
    public JsonObject request(String method, JsonObject params) {
      JsonObject p = modern ? params.copy().put("_meta", StdioClient.modernMeta(clientName)) : params;
      return stdio.request(method, p);
    }

    @Override
    public void subscribe(java.util.List<String> uris) {
      subscribeEach(uris);
    }

    @Override
    public JsonObject next(String method, Duration timeout) {
      long end = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < end) {
        JsonObject n = stdio.nextNotification(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        if (n == null || method.equals(n.getString("method"))) {
          return n;
        }
      }
      return null;
    }
  }
}
