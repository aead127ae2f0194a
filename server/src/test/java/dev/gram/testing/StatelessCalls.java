package dev.gram.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Blocking tools/call requests in the stateless 2026-07-28 era over Streamable HTTP, for tests
 * that drive a server from many threads: no session, every request carries its own {@code _meta}.
 */
public final class StatelessCalls {
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicLong ids = new AtomicLong();
  private final URI mcp;
  private final String client;

  public StatelessCalls(URI mcp, String client) {
    this.mcp = mcp;
    this.client = client;
  }

  /** What the server sent back to a tools/call: the HTTP status and the body as it came. */
  public record Reply(int status, String body) {
    /** The JSON-RPC {@code result}, or {@code null} when the body is a JSON-RPC error or not JSON. */
    public JsonObject result() {
      try {
        return new JsonObject(body).getJsonObject("result");
      } catch (RuntimeException e) {
        return null;
      }
    }
  }

  /**
   * The call's structured content: the tool's result, or {@code {"error": {...}}} for a tool
   * error. Throws {@link IOException} when the server does not answer (it was killed, say).
   */
  public JsonObject call(String tool, JsonObject arguments) throws IOException {
    Reply r = send(tool, arguments);
    JsonObject result = new JsonObject(r.body()).getJsonObject("result");
    if (result == null) {
      throw new IOException("no result: " + r.body());
    }
    return result.getJsonObject("structuredContent");
  }

  /**
   * Whatever the server answers, JSON-RPC errors and HTTP failures included, for tests that
   * record every answer; throws {@link IOException} only when there is no answer at all.
   */
  public Reply send(String tool, JsonObject arguments) throws IOException {
    JsonObject body = new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", "tools/call")
        .put("params", new JsonObject().put("name", tool).put("arguments", arguments)
            .put("_meta", StdioClient.modernMeta(client)));
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(mcp)
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
          .timeout(Duration.ofSeconds(30))
          .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
