package dev.gram.transport;

import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.MetaKeys;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * The 2026-07-28 rules for the headers of a Streamable HTTP POST: {@code MCP-Protocol-Version},
 * {@code Mcp-Method} and, for methods that name a thing, {@code Mcp-Name} repeat what the body
 * says, so that proxies can route without reading bodies; a request whose headers contradict its
 * body is refused with -32020 before the dispatcher sees it.
 */
final class ModernHeaders {
  private ModernHeaders() {}

  static final String VERSION_HEADER = "MCP-Protocol-Version";
  static final String METHOD_HEADER = "Mcp-Method";
  static final String NAME_HEADER = "Mcp-Name";

  private static final Set<String> NAMED_METHODS = Set.of("tools/call", "prompts/get", "resources/read");

  /** The header rule broken by a modern request, or null when its headers agree with its body. */
  static String mismatch(
      HttpServerRequest req, JsonRpc.Message msg, String versionHeader, String metaVersion) {
    boolean request = msg instanceof JsonRpc.Request;
    if (versionHeader == null && request) {
      // Header rules for notification POSTs are not defined by 2026-07-28: only mismatches count.
      return VERSION_HEADER + " header is required";
    }
    if (versionHeader != null && metaVersion != null && !metaVersion.equals(versionHeader)) {
      return VERSION_HEADER + " header value '" + versionHeader + "' does not match body value '"
          + metaVersion + "'";
    }
    String method =
        msg instanceof JsonRpc.Request r ? r.method()
            : msg instanceof JsonRpc.Notification n ? n.method() : null;
    String methodHeader = req.getHeader(METHOD_HEADER);
    if (msg instanceof JsonRpc.Request && methodHeader == null) {
      return METHOD_HEADER + " header is required";
    }
    if (methodHeader != null && method != null && !methodHeader.equals(method)) {
      return METHOD_HEADER + " header value '" + methodHeader + "' does not match body value '"
          + method + "'";
    }
    if (msg instanceof JsonRpc.Request r && NAMED_METHODS.contains(r.method())) {
      String nameHeader = req.getHeader(NAME_HEADER);
      Object bodyName = r.params().getValue("resources/read".equals(r.method()) ? "uri" : "name");
      if (nameHeader == null) {
        return NAME_HEADER + " header is required for " + r.method();
      }
      String decoded = decodeHeaderValue(nameHeader);
      if (decoded == null) {
        return NAME_HEADER + " header value is not valid";
      }
      if (!decoded.equals(bodyName)) {
        return NAME_HEADER + " header value '" + decoded + "' does not match body value '"
            + bodyName + "'";
      }
    }
    return null;
  }

  /** Undoes the {@code =?base64?…?=} sentinel; null for a malformed value. */
  static String decodeHeaderValue(String value) {
    if (value.startsWith("=?base64?") && value.endsWith("?=") && value.length() >= 11) {
      try {
        return new String(
            Base64.getDecoder().decode(value.substring(9, value.length() - 2)),
            StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7e)) {
        return null;
      }
    }
    return value;
  }

  static String metaVersion(JsonRpc.Message msg) {
    JsonObject params =
        msg instanceof JsonRpc.Request r ? r.params()
            : msg instanceof JsonRpc.Notification n ? n.params() : null;
    if (params != null && params.getValue("_meta") instanceof JsonObject meta
        && meta.getValue(MetaKeys.PROTOCOL_VERSION) instanceof String v) {
      return v;
    }
    return null;
  }
}
