package dev.gram.server.cli;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a running server says about itself over HTTP: {@code /healthz}, the {@code gram_*} lines of
 * {@code /metrics}, and {@code gram_capabilities} (the index and semantic search) through one
 * short MCP session.
 */
final class ServerProbe {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern METRIC = Pattern.compile("^(gram_[a-z_]+)(\\{[^}]*\\})? ([0-9.eE+-]+|NaN)$", Pattern.MULTILINE);

  /** The answers; {@code capabilities} is gram_capabilities' structured result. */
  record Report(
      String base, String health, String auth, String version, JsonObject capabilities, Map<String, Double> metrics) {}

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String base;
  private final String token;

  ServerProbe(String url, String token) {
    String b = url.strip();
    while (b.endsWith("/")) {
      b = b.substring(0, b.length() - 1);
    }
    if (b.endsWith("/mcp")) {
      b = b.substring(0, b.length() - 4);
    }
    this.base = b;
    this.token = token;
  }

  Report probe() throws IOException, InterruptedException {
    HttpResponse<String> health = send(get("/healthz"));
    if (health.statusCode() != 200) {
      throw new IOException(base + "/healthz answered HTTP " + health.statusCode());
    }
    Map<String, Double> metrics = new LinkedHashMap<>();
    HttpResponse<String> m = send(get("/metrics"));
    if (m.statusCode() == 200) {
      Matcher mm = METRIC.matcher(m.body());
      while (mm.find()) {
        metrics.put(mm.group(1) + (mm.group(2) == null ? "" : mm.group(2)), Double.parseDouble(mm.group(3)));
      }
    }
    HttpResponse<String> init = send(post(null, new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "gram-mcp status").put("version", "1")))));
    if (init.statusCode() != 200) {
      throw new IOException(base + "/mcp answered HTTP " + init.statusCode() + " to initialize"
          + (init.statusCode() == 401 ? " (give the bearer token with --token or GRAM_MCP_TOKEN)" : ""));
    }
    String session = init.headers().firstValue("Mcp-Session-Id").orElse(null);
    JsonObject info = message(init).getJsonObject("result", new JsonObject()).getJsonObject("serverInfo", new JsonObject());
    send(post(session, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized")));
    HttpResponse<String> caps = send(post(session, new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject()))));
    JsonObject result = message(caps).getJsonObject("result", new JsonObject());
    if (session != null) {
      send(HttpRequest.newBuilder(URI.create(base + "/mcp")).timeout(TIMEOUT).DELETE()
          .header("Mcp-Session-Id", session).headers(auth()).build());
    }
    JsonObject healthJson = new JsonObject(health.body());
    return new Report(base, healthJson.getString("status", "?"), auth(healthJson.getString("auth")),
        info.getString("version", "?"),
        result.getJsonObject("structuredContent", new JsonObject()), metrics);
  }

  /** How the server recognizes its callers, in words. */
  private static String auth(String mode) {
    if (mode == null) {
      return "not reported (an older server)";
    }
    return switch (mode) {
      case "none" -> "none: loopback callers reach the vault without credentials";
      case "token" -> "token: one shared bearer token";
      case "agents" -> "agents: each agent's own token (the agents file)";
      case "oauth" -> "oauth: access tokens of an OAuth issuer";
      default -> mode;
    };
  }

  /** The JSON-RPC message of an answer sent as JSON or as one SSE event. */
  private static JsonObject message(HttpResponse<String> r) {
    String body = r.body().strip();
    if (body.startsWith("{")) {
      return new JsonObject(body);
    }
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        return new JsonObject(line.substring(5).strip());
      }
    }
    return new JsonObject();
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().headers(auth()).build();
  }

  private HttpRequest post(String session, JsonObject msg) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/mcp")).timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(msg.encode()))
        .headers(auth());
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
    }
    return b.build();
  }

  private String[] auth() {
    return token == null || token.isBlank() ? new String[] {"X-Gram-Status", "1"}
        : new String[] {"Authorization", "Bearer " + token};
  }

  private HttpResponse<String> send(HttpRequest r) throws IOException, InterruptedException {
    return http.send(r, HttpResponse.BodyHandlers.ofString());
  }
}
