package dev.gram.transport;

import dev.gram.protocol.JsonRpc;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The first handler of every HTTP request. In order:
 *
 * <ol>
 *   <li>503 while the server shuts down;
 *   <li>403 when {@code Host} names a host we do not serve (a DNS-rebinding page reaches us under
 *       its own name);
 *   <li>403 when {@code Origin} is present and foreign (a browser page of another site), except
 *       on the public protected-resource metadata, which browser-based clients fetch from anywhere.
 * </ol>
 *
 * Loopback names and origins are always accepted, as are the bind address and the {@code
 * --allow-origin} origins and their hosts. A wildcard bind (0.0.0.0, ::) accepts any Host: the
 * credentials, required for such a bind, are then the protection ({@link HttpAuth}, next).
 */
final class HttpGuard implements Handler<RoutingContext> {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final Set<String> allowedHosts = new HashSet<>(LOOPBACK_HOSTS);
  private final Set<String> allowedOrigins = new HashSet<>();
  private final boolean anyHost;
  private final BooleanSupplier draining;

  HttpGuard(String bindHost, List<String> origins, BooleanSupplier draining) {
    String bind = bindHost.toLowerCase(Locale.ROOT);
    this.anyHost = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]");
    allowedHosts.add(bind);
    for (String o : origins) {
      String origin = normalizeOrigin(o);
      if (origin != null) {
        allowedOrigins.add(origin);
        allowedHosts.add(URI.create(origin).getHost().toLowerCase(Locale.ROOT));
      }
    }
    this.draining = draining;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (draining.getAsBoolean()) {
      reject(ctx, 503, "Server is shutting down");
      return;
    }
    if (!hostAllowed(req)) {
      reject(ctx, 403, "Forbidden: Host not allowed");
      return;
    }
    String origin = req.getHeader("Origin");
    if (origin != null && !originAllowed(origin) && !req.path().startsWith(ResourceMetadata.WELL_KNOWN)) {
      reject(ctx, 403, "Forbidden: Origin not allowed");
      return;
    }
    ctx.next();
  }

  private boolean hostAllowed(HttpServerRequest req) {
    if (anyHost) {
      return true;
    }
    HostAndPort authority = req.authority();
    if (authority == null) {
      // No Host at all: not a browser, so not a rebinding attack.
      return true;
    }
    String host = authority.host().toLowerCase(Locale.ROOT);
    return allowedHosts.contains(host) || allowedHosts.contains("[" + host + "]");
  }

  boolean originAllowed(String origin) {
    String o = normalizeOrigin(origin);
    if (o == null) {
      return false;
    }
    if (allowedOrigins.contains(o)) {
      return true;
    }
    URI uri = URI.create(o);
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    return LOOPBACK_HOSTS.contains(host)
        && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
  }

  /** {@code scheme://host[:port]} in lower case, or null when it is not an origin. */
  static String normalizeOrigin(String origin) {
    try {
      URI uri = URI.create(origin.trim());
      if (uri.getScheme() == null || uri.getHost() == null) {
        return null;
      }
      String s = uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost().toLowerCase(Locale.ROOT);
      return uri.getPort() >= 0 ? s + ":" + uri.getPort() : s;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static void reject(RoutingContext ctx, int status, String message) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(JsonRpc.error(null, status == 503 ? JsonRpc.INTERNAL_ERROR : JsonRpc.INVALID_REQUEST,
            message).encode());
  }
}
