package dev.gram.transport;

import java.time.Duration;
import java.util.List;

/**
 * How the HTTP transport listens and whom it lets in.
 *
 * @param token the bearer token every request but {@code /healthz} must carry, or null for none
 * @param allowedOrigins browser origins accepted besides loopback ones
 * @param idleTimeout connections silent this long are closed; SSE streams send keep-alives well
 *     within it
 * @param health facts {@code /healthz} adds to its {@code "status":"ok"} (a cluster node's
 *     membership), or null
 */
public record HttpOptions(
    String host,
    int port,
    String token,
    List<String> allowedOrigins,
    long maxBodyBytes,
    Duration idleTimeout,
    java.util.function.Supplier<io.vertx.core.json.JsonObject> health) {

  public HttpOptions(
      String host, int port, String token, List<String> allowedOrigins, long maxBodyBytes, Duration idleTimeout) {
    this(host, port, token, allowedOrigins, maxBodyBytes, idleTimeout, null);
  }
}
