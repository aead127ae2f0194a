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

  /**
   * The call's structured content: the tool's result, or {@code {"error": {...}}} for a tool
   * error. Throws {@link IOException} when the server does not answer (it was killed, say).
   */
  public JsonObject call(String tool, JsonObject arguments) throws IOException {
    JsonObject body = new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", "tools/call")
        .put("params", new JsonObject().put("name", tool).put("arguments", arguments)
            .put("_meta", StdioClient.modernMeta(client)));
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(mcp)
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
          .timeout(Duration.ofSeconds(30))
          .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
      JsonObject result = new JsonObject(r.body()).getJsonObject("result");
      if (result == null) {
        throw new IOException("no result: " + r.body());
      }
      return result.getJsonObject("structuredContent");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
