package dev.gram.bench;

import dev.gram.testing.StdioClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A non-blocking MCP client for benchmarks: stateless 2026-07-28 {@code tools/call} requests over
 * Streamable HTTP, on a Vert.x HTTP client with a keep-alive pool. Non-blocking so that the load
 * generator measures the server rather than its own thread hand-offs.
 */
final class McpHttp {
  private final HttpClient client;
  private final boolean overJdk;
  private final URI mcp;
  private final AtomicLong ids = new AtomicLong();
  private final JsonObject meta = StdioClient.modernMeta("bench");

  McpHttp(Vertx vertx, URI mcp, int connections) {
    this(vertx, mcp, connections, JDK_CLIENT);
  }

  /**
   * @param overJdk calls go over the JDK's HTTP client instead of Vert.x's: PushBench's writer,
   *     whose first call after a pause now and then was never sent by the Vert.x client's pool
   *     (docs/performance.md, Push)
   */
  McpHttp(Vertx vertx, URI mcp, int connections, boolean overJdk) {
    this.mcp = mcp;
    this.overJdk = overJdk;
    this.client = overJdk ? null :
        vertx.createHttpClient(
            new HttpClientOptions()
                .setKeepAlive(true)
                .setDefaultHost(mcp.getHost())
                .setDefaultPort(mcp.getPort()),
            new PoolOptions().setHttp1MaxSize(connections));
  }

  /**
   * With {@code -Dbench.http=jdk} every call goes over the JDK's HTTP client instead: a run that
   * stalls on one client and not on the other tells whose stall it is. Non-blocking too
   * ({@code sendAsync}).
   */
  private static final boolean JDK_CLIENT = "jdk".equals(System.getProperty("bench.http"));

  private static final java.net.http.HttpClient JDK =
      java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();

  /** The call's {@code result}: {@code structuredContent} and {@code isError}. */
  Future<JsonObject> call(String tool, JsonObject arguments) {
    JsonObject body =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", "tools/call")
            .put("params", new JsonObject().put("name", tool).put("arguments", arguments).put("_meta", meta));
    if (overJdk) {
      return overJdk(tool, body);
    }
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setURI(mcp.getPath())
            .putHeader("Content-Type", "application/json")
            .putHeader("Accept", "application/json, text/event-stream")
            .putHeader("MCP-Protocol-Version", "2026-07-28")
            .putHeader("Mcp-Method", "tools/call")
            .putHeader("Mcp-Name", tool)
            // A lost answer fails the call instead of stalling the run.
            .setIdleTimeout(60_000);
    return client
        .request(options)
        .compose(req -> req.send(Buffer.buffer(body.encode())))
        .compose(resp -> resp.statusCode() == 200 ? resp.body() : Future.failedFuture("HTTP " + resp.statusCode()))
        .map(b -> resultOf(b.toString()));
  }

  private Future<JsonObject> overJdk(String tool, JsonObject body) {
    java.net.http.HttpRequest req = java.net.http.HttpRequest.newBuilder(mcp)
        .timeout(java.time.Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", tool)
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body.encode()))
        .build();
    return Future.fromCompletionStage(JDK.sendAsync(req, java.net.http.HttpResponse.BodyHandlers.ofString()))
        .compose(resp -> resp.statusCode() == 200 ? Future.succeededFuture(resp.body()) : Future.failedFuture("HTTP " + resp.statusCode()))
        .map(McpHttp::resultOf);
  }

  /** The {@code result} of a JSON-RPC answer; fails on a JSON-RPC error. */
  private static JsonObject resultOf(String answer) {
    JsonObject msg = new JsonObject(answer);
    JsonObject result = msg.getJsonObject("result");
    if (result == null) {
      throw new IllegalStateException("JSON-RPC error " + msg.getValue("error"));
    }
    return result;
  }

  /** The structured content of a successful call; fails on a tool error. */
  Future<JsonObject> ok(String tool, JsonObject arguments) {
    return call(tool, arguments).map(r -> {
      if (Boolean.TRUE.equals(r.getBoolean("isError"))) {
        throw new IllegalStateException(tool + " failed: " + r.getJsonObject("structuredContent").encode());
      }
      return r.getJsonObject("structuredContent");
    });
  }
}
