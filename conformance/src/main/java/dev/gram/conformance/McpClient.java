package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runner's MCP client: the era's opening (an {@code initialize} handshake, or a {@code
 * server/discover} check for 2026-07-28), then requests over a {@link Wire}. In 2026-07-28 every
 * request carries the protocol version, the client capabilities and the client's name in {@code
 * _meta}, and no state is kept between requests.
 */
final class McpClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpClient.class);

  static final String CLIENT_NAME = "gram-conformance";
  static final String CLIENT_VERSION = "1";

  private final Wire wire;
  private final Era era;
  private final AtomicLong ids = new AtomicLong();

  McpClient(Wire wire, Era era) {
    this.wire = wire;
    this.era = era;
  }

  Era era() {
    return era;
  }

  String describe() {
    return wire.describe() + " (" + (era == Era.LEGACY ? "legacy era" : "2026-07-28") + ")";
  }

  /** Opens the conversation; a server that cannot is not worth running cases against. */
  void open() throws IOException {
    if (era == Era.LEGACY) {
      ObjectNode params = Json.object().put("protocolVersion", wire.legacyVersion());
      params.set("capabilities", Json.object());
      params.set("clientInfo", clientInfo());
      JsonNode answer = request("initialize", params);
      JsonNode version = answer.path("result").path("protocolVersion");
      if (!version.isTextual()) {
        throw new IOException("initialize was not answered with a protocolVersion: " + Json.brief(answer, 300));
      }
      wire.negotiated(version.asText());
      wire.notify(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    } else {
      JsonNode answer = request("server/discover", Json.object());
      JsonNode versions = answer.path("result").path("supportedVersions");
      boolean speaks = false;
      for (JsonNode v : versions) {
        speaks |= Era.MODERN_VERSION.equals(v.asText());
      }
      if (!speaks) {
        throw new IOException("server/discover does not list " + Era.MODERN_VERSION + ": " + Json.brief(answer, 300));
      }
    }
  }

  private static ObjectNode clientInfo() {
    return Json.object().put("name", CLIENT_NAME).put("version", CLIENT_VERSION);
  }

  /** Sends a request and returns the whole response message (result or error). */
  JsonNode request(String method, ObjectNode params) throws IOException {
    return request(method, params, true);
  }

  /**
   * Sends a request; with {@code addMeta} false the params go exactly as given, without the
   * era's {@code _meta} (to check how a server refuses an incomplete one).
   */
  JsonNode request(String method, ObjectNode params, boolean addMeta) throws IOException {
    ObjectNode p = params == null ? Json.object() : params.deepCopy();
    if (era == Era.MODERN && addMeta) {
      ObjectNode meta = p.has("_meta") && p.get("_meta").isObject() ? (ObjectNode) p.get("_meta") : Json.object();
      meta.put("io.modelcontextprotocol/protocolVersion", Era.MODERN_VERSION);
      meta.set("io.modelcontextprotocol/clientCapabilities", Json.object());
      meta.set("io.modelcontextprotocol/clientInfo", clientInfo());
      p.set("_meta", meta);
    }
    ObjectNode msg = Json.object().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
    msg.set("params", p);
    LOG.debug("→ {}", Json.brief(msg, 2000));
    JsonNode answer = wire.request(msg);
    LOG.debug("← {}", Json.brief(answer, 2000));
    return answer;
  }

  /**
   * The names {@code tools/list} offers, following {@code nextCursor}; null when the server
   * cannot list its tools (then cases are tried anyway).
   */
  Set<String> toolNames() {
    Set<String> names = new LinkedHashSet<>();
    String cursor = null;
    try {
      do {
        ObjectNode params = Json.object();
        if (cursor != null) {
          params.put("cursor", cursor);
        }
        JsonNode result = request("tools/list", params).path("result");
        if (!result.path("tools").isArray()) {
          return null;
        }
        result.path("tools").forEach(t -> names.add(t.path("name").asText()));
        cursor = result.path("nextCursor").isTextual() ? result.path("nextCursor").asText() : null;
      } while (cursor != null && names.size() < 10_000);
    } catch (IOException e) {
      LOG.warn("tools/list failed ({}): every case is tried", e.getMessage());
      return null;
    }
    return names;
  }

  /** {@code tools/call}: the whole response message. */
  JsonNode callTool(String name, JsonNode arguments) throws IOException {
    ObjectNode params = Json.object().put("name", name);
    params.set("arguments", arguments == null ? Json.object() : arguments);
    return request("tools/call", params);
  }

  @Override
  public void close() {
    wire.close();
  }
}
