package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.ProtocolMetrics;
import dev.gram.protocol.ServerInfo;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP transport in-process, with a tool that reports progress and then waits, to see what the
 * jar's placeholder tools cannot show: progress streamed before the answer, and cancellation by a
 * closed connection (modern) or by {@code notifications/cancelled} (legacy session).
 */
class HttpTransportTest {
  private Vertx vertx;
  private HttpTransport transport;
  private URI mcp;
  private final AtomicReference<CallContext> context = new AtomicReference<>();
  private final AtomicReference<Promise<JsonObject>> pending = new AtomicReference<>();
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final class Waiting implements Tool {
    @Override
    public String name() {
      return "waiting";
    }

    @Override
    public String description() {
      return "reports progress, then waits to be released";
    }

    @Override
    public JsonObject inputSchema() {
      return new JsonObject().put("type", "object").put("additionalProperties", false);
    }

    @Override
    public boolean readOnly() {
      return true;
    }

    @Override
    public Future<JsonObject> call(JsonObject arguments, CallContext ctx) {
      Promise<JsonObject> p = Promise.promise();
      context.set(ctx);
      pending.set(p);
      ctx.progress(1, 2.0, "first half");
      vertx.setTimer(50, t -> {
        ctx.progress(2, 2.0, "second half");
        p.tryComplete(new JsonObject().put("agent", ctx.agent()));
      });
      return p.future();
    }
  }

  private final class Hanging implements Tool {
    @Override
    public String name() {
      return "hanging";
    }

    @Override
    public String description() {
      return "never answers until released";
    }

    @Override
    public JsonObject inputSchema() {
      return new JsonObject().put("type", "object");
    }

    @Override
    public boolean readOnly() {
      return true;
    }

    @Override
    public Future<JsonObject> call(JsonObject arguments, CallContext ctx) {
      Promise<JsonObject> p = Promise.promise();
      context.set(ctx);
      pending.set(p);
      return p.future();
    }
  }

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    McpDispatcher dispatcher = new McpDispatcher(vertx, new ToolRegistry(List.of(new Waiting(), new Hanging())),
        new ServerInfo("gram-mcp", "test", null), ProtocolMetrics.NONE);
    transport = new HttpTransport(dispatcher, new ServerMetrics(),
        new HttpOptions("127.0.0.1", 0, List.of(), 1 << 20, Duration.ofSeconds(30)));
    vertx.deployVerticle(transport).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    mcp = URI.create("http://127.0.0.1:" + transport.port() + "/mcp");
  }

  @AfterEach
  void stop() throws Exception {
    Promise<JsonObject> p = pending.get();
    if (p != null) {
      p.tryComplete(new JsonObject());
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static JsonObject modernCall(Object id, String tool, boolean progress) {
    JsonObject meta = new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject())
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "stream-agent").put("version", "1"));
    if (progress) {
      meta.put("progressToken", 7);
    }
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call")
        .put("params", new JsonObject().put("name", tool).put("_meta", meta));
  }

  private HttpRequest.Builder post(String body) {
    return HttpRequest.newBuilder(mcp).POST(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
  }

  @Test
  void progressIsStreamedAsServerSentEventsBeforeTheAnswer() throws Exception {
    HttpResponse<String> r = client.send(post(modernCall(1, "waiting", true).encode())
            .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "waiting").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
    List<JsonObject> events = Stream.of(r.body().split("\n"))
        .filter(l -> l.startsWith("data: ")).map(l -> new JsonObject(l.substring(6))).collect(Collectors.toList());
    assertThat(events).hasSize(3);
    assertThat(events.get(0).getString("method")).isEqualTo("notifications/progress");
    assertThat(events.get(0).getJsonObject("params").getInteger("progressToken")).isEqualTo(7);
    assertThat(events.get(1).getJsonObject("params").getString("message")).isEqualTo("second half");
    JsonObject answer = events.get(2);
    assertThat(answer.getInteger("id")).isEqualTo(1);
    assertThat(answer.getJsonObject("result").getJsonObject("structuredContent").getString("agent")).isEqualTo("stream-agent");
  }

  @Test
  void closingTheConnectionCancelsAModernRequest() throws Exception {
    String body = modernCall(2, "hanging", false).encode();
    try (Socket s = new Socket("127.0.0.1", transport.port())) {
      OutputStream out = s.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
          + "Mcp-Method: tools/call\r\nMcp-Name: hanging\r\nContent-Length: "
          + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
      out.flush();
      awaitTrue(() -> context.get() != null);
      assertThat(context.get().cancelled()).isFalse();
    }
    awaitTrue(() -> context.get().cancelled());
  }

  @Test
  void notificationsCancelledCancelsACallInALegacySession() throws Exception {
    HttpResponse<String> init = client.send(post(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
            .put("params", new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())).encode()).build(),
        HttpResponse.BodyHandlers.ofString());
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    CompletableFuture<HttpResponse<String>> call = client.sendAsync(
        post(new JsonObject().put("jsonrpc", "2.0").put("id", "slow-1").put("method", "tools/call")
            .put("params", new JsonObject().put("name", "hanging")).encode()).header("Mcp-Session-Id", session).build(),
        HttpResponse.BodyHandlers.ofString());
    awaitTrue(() -> context.get() != null);
    HttpResponse<String> cancel = client.send(post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
            .put("params", new JsonObject().put("requestId", "slow-1").put("reason", "user")).encode())
            .header("Mcp-Session-Id", session).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(cancel.statusCode()).isEqualTo(202);
    HttpResponse<String> answered = call.get(10, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).as("a cancelled request gets no JSON-RPC answer").isEqualTo(204);
    assertThat(answered.body()).isEmpty();
    assertThat(context.get().cancelled()).isTrue();
  }

  @Test
  void idleConnectionsAreClosedAfterTheIdleTimeout() throws Exception {
    McpDispatcher dispatcher = new McpDispatcher(vertx, new ToolRegistry(List.of(new Hanging())),
        new ServerInfo("gram-mcp", "test", null), ProtocolMetrics.NONE);
    HttpTransport idle = new HttpTransport(dispatcher, new ServerMetrics(),
        new HttpOptions("127.0.0.1", 0, List.of(), 1 << 20, Duration.ofSeconds(1)));
    vertx.deployVerticle(idle).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    try (Socket s = new Socket("127.0.0.1", idle.port())) {
      s.setSoTimeout(10_000);
      long t0 = System.nanoTime();
      assertThat(s.getInputStream().read()).as("server closed the silent connection").isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(5));
    }
  }

  @Test
  void legacySseRejectsUnknownSessionsAndMalformedMessages() throws Exception {
    URI unknown = URI.create("http://127.0.0.1:" + transport.port() + "/message?sessionId=nope");
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(unknown).POST(HttpRequest.BodyPublishers.ofString("{}"))
        .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(404);
    HttpResponse<String> get = client.send(HttpRequest.newBuilder(unknown).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
  }

  @Test
  void bodiesTheServerCannotTakeGetAJsonRpcErrorAndTheServerAnswersAfterwards() throws Exception {
    String boundary = "gramboundary";
    String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\n"
        + "x".repeat(100_000) + "\r\n--" + boundary + "--\r\n";
    HttpResponse<String> multipart = client.send(HttpRequest.newBuilder(mcp).POST(HttpRequest.BodyPublishers.ofString(form))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .header("Accept", "application/json, text/event-stream").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(multipart.statusCode()).isEqualTo(400);
    assertThat(multipart.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonObject error = new JsonObject(multipart.body());
    assertThat(error.getString("jsonrpc")).isEqualTo("2.0");
    assertThat(error.containsKey("id")).isTrue();
    assertThat(error.getJsonObject("error").getInteger("code")).isEqualTo(-32700);

    HttpResponse<String> tooLarge = client.send(post("{\"pad\":\"" + "y".repeat(2 << 20) + "\"}").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(new JsonObject(tooLarge.body()).getJsonObject("error").getInteger("code")).isEqualTo(-32600);

    JsonObject meta = new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    HttpResponse<String> list = client.send(post(new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/list")
        .put("params", new JsonObject().put("_meta", meta)).encode())
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(list.statusCode()).isEqualTo(200);
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.sleep(10);
    }
  }
}
