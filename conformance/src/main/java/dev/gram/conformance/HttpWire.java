package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streamable HTTP: every message is a POST to one endpoint, answered with one JSON object or with
 * an SSE stream that ends with the answer.
 *
 * <p>Legacy era: the {@code initialize} answer may name a session ({@code Mcp-Session-Id}), sent
 * back on every later request together with {@code MCP-Protocol-Version}; closing ends the
 * session with DELETE. 2026-07-28: no session; each POST carries {@code MCP-Protocol-Version},
 * {@code Mcp-Method} and, for {@code tools/call}, {@code Mcp-Name}, which must equal the body.
 */
final class HttpWire implements Wire {
  private static final Logger LOG = LoggerFactory.getLogger(HttpWire.class);

  private static final ScheduledExecutorService CUTOFF =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "conformance-http-cutoff");
            t.setDaemon(true);
            return t;
          });

  private final URI endpoint;
  private final Era era;
  private final Duration timeout;
  private final Map<String, String> extraHeaders;
  private final HttpClient http;
  private volatile String session;
  private volatile String version;

  HttpWire(URI endpoint, Era era, Duration timeout, Map<String, String> extraHeaders) {
    this.endpoint = endpoint;
    this.era = era;
    this.timeout = timeout;
    this.extraHeaders = Map.copyOf(extraHeaders);
    // HTTP/1.1: an MCP server need not speak HTTP/2, and h2c upgrade attempts confuse some.
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
  }

  private HttpRequest.Builder post(ObjectNode message) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(Json.compact(message), StandardCharsets.UTF_8));
    extraHeaders.forEach(b::header);
    if (era == Era.MODERN) {
      b.header("MCP-Protocol-Version", Era.MODERN_VERSION);
      String method = message.path("method").asText();
      b.header("Mcp-Method", method);
      JsonNode name = message.path("params").get(method.equals("resources/read") ? "uri" : "name");
      if (name != null && name.isTextual() && (method.equals("tools/call") || method.equals("prompts/get") || method.equals("resources/read"))) {
        b.header("Mcp-Name", headerValue(name.asText()));
      }
    } else {
      if (version != null) {
        b.header("MCP-Protocol-Version", version);
      }
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
    }
    return b;
  }

  /**
   * A header value as 2026-07-28 sends it: as is when it is plain printable ASCII without
   * surrounding spaces, else {@code =?base64?…?=}.
   */
  static String headerValue(String v) {
    boolean plain = !v.isEmpty() && !v.startsWith(" ") && !v.endsWith(" ") && !v.startsWith("=?base64?");
    for (int i = 0; i < v.length() && plain; i++) {
      char c = v.charAt(i);
      plain = c >= 0x20 && c < 0x7f;
    }
    return plain ? v : "=?base64?" + Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)) + "?=";
  }

  @Override
  public JsonNode request(ObjectNode message) throws IOException {
    HttpResponse<InputStream> r = send(post(message).build());
    // The request timeout covers only the wait for headers; a streamed answer that never ends
    // is cut off by closing its body, which makes the blocked read fail.
    ScheduledFuture<?> cutoff = CUTOFF.schedule(() -> closeQuietly(r.body()), timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      return read(message, r);
    } catch (IOException e) {
      throw cutoff.isDone() ? new IOException("no complete answer within " + timeout.toSeconds() + " s", e) : e;
    } finally {
      cutoff.cancel(false);
    }
  }

  private JsonNode read(ObjectNode message, HttpResponse<InputStream> r) throws IOException {
    r.headers().firstValue("Mcp-Session-Id").ifPresent(s -> {
      if (era == Era.LEGACY && "initialize".equals(message.path("method").asText())) {
        session = s;
      }
    });
    String type = r.headers().firstValue("Content-Type").orElse("").toLowerCase();
    JsonNode id = message.get("id");
    try (InputStream body = r.body()) {
      if (type.startsWith("text/event-stream")) {
        try (SseReader events = new SseReader(body)) {
          SseReader.Event e;
          while ((e = events.next()) != null) {
            if (!e.name().equals("message")) {
              continue;
            }
            JsonNode msg = Json.parse(e.data());
            if (!msg.has("method") && id.equals(msg.get("id"))) {
              return msg;
            }
          }
        }
        throw new IOException("HTTP " + r.statusCode() + ": the event stream ended without the answer");
      }
      byte[] bytes = body.readAllBytes();
      String text = new String(bytes, StandardCharsets.UTF_8);
      if (type.startsWith("application/json") && !text.isBlank()) {
        return Json.parse(text);
      }
      throw new IOException(
          "HTTP " + r.statusCode() + " with " + (type.isEmpty() ? "no Content-Type" : type)
              + (text.isBlank() ? " and no body" : ": " + cut(text)));
    }
  }

  @Override
  public void notify(ObjectNode message) throws IOException {
    HttpResponse<InputStream> r = send(post(message).build());
    try (InputStream body = r.body()) {
      String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
      if (r.statusCode() / 100 != 2) {
        throw new IOException("notification " + message.path("method").asText() + " answered HTTP " + r.statusCode() + ": " + cut(text));
      }
    }
  }

  private HttpResponse<InputStream> send(HttpRequest request) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // the answer ended meanwhile
    }
  }

  private static String cut(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "…";
  }

  @Override
  public void negotiated(String version) {
    this.version = version;
  }

  @Override
  public String describe() {
    return "Streamable HTTP " + endpoint;
  }

  @Override
  public void close() {
    if (session == null) {
      return;
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(timeout).DELETE().header("Mcp-Session-Id", session);
    if (version != null) {
      b.header("MCP-Protocol-Version", version);
    }
    extraHeaders.forEach(b::header);
    try {
      http.send(b.build(), HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      LOG.debug("ending the session: {}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
