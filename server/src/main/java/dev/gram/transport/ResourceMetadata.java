package dev.gram.transport;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;

/**
 * The OAuth 2.0 protected-resource metadata (RFC 9728) of a server that takes OAuth access
 * tokens: served at {@code /.well-known/oauth-protected-resource} and at the same path followed by
 * the resource's own path (for {@code https://host/mcp}, {@code
 * /.well-known/oauth-protected-resource/mcp}), where RFC 9728 tells clients to look. Public: it
 * names no secret, and clients fetch it before they hold a token.
 */
final class ResourceMetadata {
  static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

  private final JsonObject document;

  /** @param document the metadata ({@code resource}, {@code authorization_servers}, …) */
  ResourceMetadata(JsonObject document) {
    this.document = document;
  }

  /** The paths the document is served at. */
  java.util.List<String> paths() {
    String path = URI.create(document.getString("resource")).getRawPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      return java.util.List.of(WELL_KNOWN);
    }
    return java.util.List.of(WELL_KNOWN, WELL_KNOWN + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path));
  }

  void serve(RoutingContext ctx) {
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "max-age=3600")
        .putHeader("Access-Control-Allow-Origin", "*")
        .end(document.encode());
  }
}
