package dev.gram.transport;

import dev.gram.access.Authenticator;
import java.time.Duration;
import java.util.List;

/**
 * How the HTTP transport listens and whom it lets in.
 *
 * @param authenticator who a request's credential proves (every request but the public ones)
 * @param resourceMetadata the RFC 9728 protected-resource metadata to publish, or null when the
 *     server takes no OAuth tokens
 * @param allowedOrigins browser origins accepted besides loopback ones
 * @param idleTimeout connections silent this long are closed; SSE streams send keep-alives well
 *     within it
 * @param health facts {@code /healthz} adds to its {@code "status":"ok"} (a cluster node's
 *     membership), or null
 */
public record HttpOptions(
    String host,
    int port,
    Authenticator authenticator,
    io.vertx.core.json.JsonObject resourceMetadata,
    List<String> allowedOrigins,
    long maxBodyBytes,
    Duration idleTimeout,
    java.util.function.Supplier<io.vertx.core.json.JsonObject> health) {

  /** Open to every loopback caller, as the server is without credentials configured. */
  public HttpOptions(
      String host, int port, List<String> allowedOrigins, long maxBodyBytes, Duration idleTimeout) {
    this(host, port, Authenticator.open(), null, allowedOrigins, maxBodyBytes, idleTimeout, null);
  }
}
