package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Contract;
import dev.gram.testing.Http;
import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw HTTP against the built jar: the 2026-07-28 stateless era (server/discover, per-request
 * {@code _meta}, resultType, cache hints, header checks and their status codes), the legacy session
 * lifecycle on the same endpoint, and the HTTP guards (Origin, Host, body size), health and metrics.
 */
class StreamableHttpIT {
  @TempDir static Path dir;
  static ServerProcess server;
  static Http http;

  @BeforeAll
  static void start() {
    server = ServerProcess.start(dir, "--max-body-bytes", "4096");
    http = new Http(server.mcpUrl());
  }

  @AfterAll
  static void stop() {
    assertThat(server.stop()).isZero();
  }

  private static JsonObject json(HttpResponse<String> r) {
    return new JsonObject(r.body());
  }

  private static int errorCode(HttpResponse<String> r) {
    return json(r).getJsonObject("error").getInteger("code");
  }

  // ------------------------------------------------------------------ modern era

  @Test
  void serverDiscoverAdvertisesVersionsCapabilitiesIdentityAndCacheHints() {
    HttpResponse<String> r = http.modern("server/discover", new JsonObject()).send();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    assertThat(r.headers().firstValue("Mcp-Session-Id")).as("modern requests get no session").isEmpty();
    JsonObject result = json(r).getJsonObject("result");
    assertThat(result.getString("resultType")).isEqualTo("complete");
    assertThat(result.getJsonArray("supportedVersions").getList())
        .contains("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    assertThat(result.getJsonObject("capabilities").getJsonObject("tools")).isNotNull();
    assertThat(result.getLong("ttlMs")).isNotNegative();
    assertThat(result.getString("cacheScope")).isEqualTo("public");
    assertThat(result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"))
        .isEqualTo("gram-mcp");
  }

  @Test
  void modernToolsListCarriesResultTypeTtlAndCacheScopeAndTheContractSchemas() {
    HttpResponse<String> r = http.modern("tools/list", new JsonObject()).send();
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject result = json(r).getJsonObject("result");
    assertThat(result.getString("resultType")).isEqualTo("complete");
    assertThat(result.getLong("ttlMs")).isNotNegative();
    assertThat(result.getString("cacheScope")).isIn("public", "private");
    JsonArray tools = result.getJsonArray("tools");
    assertThat(tools).hasSize(15);
    for (int i = 0; i < tools.size(); i++) {
      JsonObject t = tools.getJsonObject(i);
      assertThat(t.getString("name")).isEqualTo(Contract.toolNames().get(i));
      assertThat(t.getJsonObject("inputSchema")).isEqualTo(Contract.inputSchema(t.getString("name")));
    }
  }

  @Test
  void modernToolCallAnswersWithResultTypeAndStructuredContent() {
    HttpResponse<String> r =
        http.modern("tools/call", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject()))
            .send();
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject result = json(r).getJsonObject("result");
    assertThat(result.getString("resultType")).isEqualTo("complete");
    assertThat(result.getJsonObject("structuredContent").getInteger("budget_bytes")).isEqualTo(16384);
    assertThat(new JsonObject(result.getJsonArray("content").getJsonObject(0).getString("text")))
        .isEqualTo(result.getJsonObject("structuredContent"));
    assertThat(result.containsKey("isError")).isFalse();
  }

  @Test
  void modernToolErrorIsAResultWithResultType() {
    HttpResponse<String> r =
        http.modern("tools/call", new JsonObject().put("name", "gram_get").put("arguments", new JsonObject().put("path", "a.gram").put("entity", "d1").put("color", "red")))
            .send();
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject result = json(r).getJsonObject("result");
    assertThat(result.getString("resultType")).isEqualTo("complete");
    assertThat(result.getBoolean("isError")).isTrue();
    assertThat(result.getJsonObject("structuredContent").getJsonObject("error").getString("message"))
        .isEqualTo("Unknown argument color");
  }

  @Test
  void mcpNameMayBeBase64Encoded() {
    String encoded = "=?base64?" + Base64.getEncoder().encodeToString("gram_capabilities".getBytes(StandardCharsets.UTF_8)) + "?=";
    HttpResponse<String> r =
        http.modern("tools/call", new JsonObject().put("name", "gram_capabilities"))
            .header("Mcp-Name", encoded)
            .send();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(json(r).getJsonObject("result").getString("resultType")).isEqualTo("complete");
  }

  @Test
  void mcpNameThatDisagreesWithTheBodyIs400HeaderMismatch() {
    HttpResponse<String> r =
        http.modern("tools/call", new JsonObject().put("name", "gram_capabilities"))
            .header("Mcp-Name", "gram_patch")
            .send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32020);
    assertThat(json(r).getValue("id")).isEqualTo(1);
  }

  @Test
  void missingMcpNameOnToolsCallIs400HeaderMismatch() {
    HttpResponse<String> r =
        http.modern("tools/call", new JsonObject().put("name", "gram_capabilities")).without("Mcp-Name").send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32020);
  }

  @Test
  void mcpMethodThatDisagreesWithTheBodyIs400HeaderMismatch() {
    HttpResponse<String> r = http.modern("tools/list", new JsonObject()).header("Mcp-Method", "server/discover").send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32020);
    HttpResponse<String> missing = http.modern("tools/list", new JsonObject()).without("Mcp-Method").send();
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(errorCode(missing)).isEqualTo(-32020);
  }

  @Test
  void protocolVersionHeaderThatDisagreesWithMetaIs400HeaderMismatch() {
    HttpResponse<String> r =
        http.modern("tools/list", new JsonObject()).header("MCP-Protocol-Version", "2025-11-25").send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32020);
  }

  @Test
  void unsupportedProtocolVersionIs400WithTheSupportedList() {
    JsonObject params =
        new JsonObject().put("_meta", new JsonObject()
            .put("io.modelcontextprotocol/protocolVersion", "1900-01-01")
            .put("io.modelcontextprotocol/clientCapabilities", new JsonObject()));
    HttpResponse<String> r = http.modern("tools/list", params).header("MCP-Protocol-Version", "1900-01-01").send();
    assertThat(r.statusCode()).isEqualTo(400);
    JsonObject error = json(r).getJsonObject("error");
    assertThat(error.getInteger("code")).isEqualTo(-32022);
    assertThat(error.getJsonObject("data").getJsonArray("supported").getList()).contains("2026-07-28");
    assertThat(error.getJsonObject("data").getString("requested")).isEqualTo("1900-01-01");
  }

  @Test
  void anUnsupportedVersionRefusalCarriesTheRequestsId() {
    JsonObject params =
        new JsonObject().put("_meta", new JsonObject()
            .put("io.modelcontextprotocol/protocolVersion", "v999.0.0")
            .put("io.modelcontextprotocol/clientCapabilities", new JsonObject()));
    Http.Post post = http.modern("server/discover", params).header("MCP-Protocol-Version", "v999.0.0");
    post.body().put("id", 301);
    HttpResponse<String> r = post.send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(json(r).getValue("id")).isEqualTo(301);
    assertThat(errorCode(r)).isEqualTo(-32022);
  }

  @Test
  void initializeIn2026IsAnUnknownMethodWhileOlderVersionsStillOpenASession() {
    JsonObject init = new JsonObject().put("protocolVersion", "2026-07-28").put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"));
    Http.Post modern = http.modern("initialize", init);
    modern.body().put("id", 500);
    HttpResponse<String> r = modern.send();
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(errorCode(r)).isEqualTo(-32601);
    assertThat(json(r).getValue("id")).isEqualTo(500);
    // The same request under the header alone, without _meta, is refused the same way.
    HttpResponse<String> headerOnly = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 501).put("method", "initialize").put("params", init))
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "initialize").send();
    assertThat(headerOnly.statusCode()).isEqualTo(404);
    assertThat(errorCode(headerOnly)).isEqualTo(-32601);
    assertThat(json(headerOnly).getValue("id")).isEqualTo(501);
    HttpResponse<String> legacy = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "initialize")
        .put("params", init.copy().put("protocolVersion", "2025-11-25"))).send();
    assertThat(legacy.statusCode()).isEqualTo(200);
    assertThat(json(legacy).getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
  }

  @Test
  void unknownMethodIs404MethodNotFound() {
    HttpResponse<String> r = http.modern("completion/complete", new JsonObject()).send();
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(errorCode(r)).isEqualTo(-32601);
  }

  @Test
  void missingClientCapabilitiesIs400InvalidParams() {
    JsonObject params = new JsonObject().put("_meta", new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28"));
    HttpResponse<String> r = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/list").put("params", params))
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list").send();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32602);
  }

  @Test
  void aNotificationIs202WithNoBody() {
    HttpResponse<String> r =
        http.post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
                .put("params", new JsonObject().put("requestId", 99)))
            .header("MCP-Protocol-Version", "2026-07-28").send();
    assertThat(r.statusCode()).isEqualTo(202);
    assertThat(r.body()).isEmpty();
  }

  @Test
  void aRequestForProgressIsAnsweredWithItsResultInEitherFraming() {
    // The server streams only once there is progress to send; a quick call is one JSON answer.
    JsonObject params = new JsonObject().put("name", "gram_capabilities")
        .put("_meta", new JsonObject().put("progressToken", "p1"));
    HttpResponse<String> r = http.modern("tools/call", params).send();
    assertThat(r.statusCode()).isEqualTo(200);
    String type = r.headers().firstValue("Content-Type").orElse("");
    JsonObject answer;
    if (type.startsWith("text/event-stream")) {
      String data = Stream.of(r.body().split("\n")).filter(l -> l.startsWith("data: ")).reduce((a, b) -> b).orElseThrow();
      answer = new JsonObject(data.substring(6));
    } else {
      assertThat(type).startsWith("application/json");
      answer = json(r);
    }
    assertThat(answer.getValue("id")).isEqualTo(1);
    assertThat(answer.getJsonObject("result").getString("resultType")).isEqualTo("complete");
  }

  @Test
  void subscriptionsListenIsAcknowledgedOnAnOpenStream() throws Exception {
    Http.Post post = http.modern("subscriptions/listen",
        new JsonObject().put("notifications", new JsonObject().put("toolsListChanged", true)));
    HttpRequest.Builder b = HttpRequest.newBuilder(server.mcpUrl())
        .POST(HttpRequest.BodyPublishers.ofString(post.body().encode()))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "subscriptions/listen");
    HttpResponse<InputStream> r = Http.client().send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      String line;
      JsonObject first = null;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("data: ")) {
          first = new JsonObject(line.substring(6));
          break;
        }
      }
      assertThat(first).isNotNull();
      assertThat(first.getString("method")).isEqualTo("notifications/subscriptions/acknowledged");
      assertThat(first.getJsonObject("params").getJsonObject("_meta").getValue("io.modelcontextprotocol/subscriptionId")).isEqualTo(1);
    }
  }

  // ------------------------------------------------------------------ legacy sessions, same endpoint

  @Test
  void legacySessionLifecycleOnTheSameEndpoint() {
    HttpResponse<String> init = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", "i1").put("method", "initialize")
            .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "legacy-raw").put("version", "1"))))
        .send();
    assertThat(init.statusCode()).isEqualTo(200);
    assertThat(json(init).getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-06-18");
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(session).matches("[\\x21-\\x7e]{16,}");

    HttpResponse<String> initialized = http.post(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
        .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18").send();
    assertThat(initialized.statusCode()).isEqualTo(202);
    assertThat(initialized.body()).isEmpty();

    HttpResponse<String> list = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/list"))
        .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18").send();
    assertThat(list.statusCode()).isEqualTo(200);
    JsonObject result = json(list).getJsonObject("result");
    assertThat(result.getJsonArray("tools")).hasSize(15);
    assertThat(result.containsKey("resultType")).as("legacy results keep their legacy shape").isFalse();

    // A modern request in between, on the same endpoint, needs no session and ignores one.
    assertThat(http.modern("tools/list", new JsonObject()).send().statusCode()).isEqualTo(200);
    assertThat(http.modern("tools/list", new JsonObject()).header("Mcp-Session-Id", "stale").send().statusCode()).isEqualTo(200);

    HttpResponse<String> noSession = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/list"))
        .header("MCP-Protocol-Version", "2025-06-18").send();
    assertThat(noSession.statusCode()).isEqualTo(400);

    HttpResponse<String> unsupported = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 4).put("method", "tools/list"))
        .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2023-01-01").send();
    assertThat(unsupported.statusCode()).isEqualTo(400);

    assertThat(http.delete(Map.of("Mcp-Session-Id", session)).statusCode()).isIn(200, 204);
    HttpResponse<String> ended = http.post(new JsonObject().put("jsonrpc", "2.0").put("id", 5).put("method", "tools/list"))
        .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18").send();
    assertThat(ended.statusCode()).isEqualTo(404);
    assertThat(http.delete(Map.of("Mcp-Session-Id", session)).statusCode()).isEqualTo(404);
  }

  @Test
  void getWithoutSessionIs405AndDeleteWithoutSessionIs400() {
    assertThat(http.get(Map.of("Accept", "text/event-stream")).statusCode()).isEqualTo(405);
    assertThat(http.delete(Map.of()).statusCode()).isEqualTo(400);
    assertThat(http.get(Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "no-such-session")).statusCode()).isEqualTo(404);
    assertThat(http.delete(Map.of("Mcp-Session-Id", "no-such-session", "MCP-Protocol-Version", "1.0")).statusCode()).isEqualTo(400);
  }

  @Test
  void malformedJsonIs400ParseError() {
    HttpResponse<String> r = Http.send(HttpRequest.newBuilder(server.mcpUrl()).POST(HttpRequest.BodyPublishers.ofString("{not json")),
        Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream"));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32700);
  }

  // ------------------------------------------------------------------ guards, health, metrics

  @Test
  void aForeignOriginIs403AndALoopbackOriginIsAccepted() {
    HttpResponse<String> foreign = http.modern("tools/list", new JsonObject()).header("Origin", "https://evil.example").send();
    assertThat(foreign.statusCode()).isEqualTo(403);
    HttpResponse<String> local = http.modern("tools/list", new JsonObject()).header("Origin", "http://localhost:3000").send();
    assertThat(local.statusCode()).isEqualTo(200);
    HttpResponse<String> sse = Http.send(HttpRequest.newBuilder(server.sseUrl()).GET(), Map.of("Origin", "https://evil.example"));
    assertThat(sse.statusCode()).isEqualTo(403);
  }

  @Test
  void aForeignHostIs403AgainstDnsRebinding() throws Exception {
    String status;
    try (Socket s = new Socket(server.baseUrl().getHost(), server.baseUrl().getPort())) {
      OutputStream out = s.getOutputStream();
      out.write(("GET /healthz HTTP/1.1\r\nHost: attacker.example:" + server.baseUrl().getPort()
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }
    assertThat(status).startsWith("HTTP/1.1 403");
  }

  @Test
  void aBodyOverTheLimitIs413() {
    JsonObject big = new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject().put("pad", "x".repeat(8000)));
    HttpResponse<String> r = http.modern("tools/call", big).send();
    assertThat(r.statusCode()).isEqualTo(413);
  }

  @Test
  void healthzAndPrometheusMetrics() {
    HttpResponse<String> health = Http.send(HttpRequest.newBuilder(server.baseUrl().resolve("healthz")).GET(), Map.of());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(json(health).getString("status")).isEqualTo("ok");

    http.modern("tools/call", new JsonObject().put("name", "gram_capabilities")).send();
    http.modern("tools/call", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject().put("x", 1))).send();
    HttpResponse<String> metrics = Http.send(HttpRequest.newBuilder(server.baseUrl().resolve("metrics")).GET(), Map.of());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("gram_tool_calls_total{outcome=\"ok\",tool=\"gram_capabilities\",transport=\"http\"}")
        .contains("gram_errors_total{code=\"E_ARGUMENT\",kind=\"tool\"}")
        .contains("gram_tool_latency_seconds_bucket{tool=\"gram_capabilities\"")
        .contains("gram_sessions_open{transport=\"http\"}")
        .contains("gram_sessions_open{transport=\"sse\"}")
        .contains("gram_write_queue_depth 0.0")
        .contains("gram_http_requests_total{method=\"POST\",status=\"200\"}");
  }
}
