package dev.gram.transport;

import dev.gram.protocol.JsonRpc;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
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
 *   <li>403 when {@code Origin} is present and foreign (a browser page of another site);
 *   <li>401 without the bearer token, when one is configured ({@code /healthz} excepted, so
 *       liveness probes need no secret, and the paths of an {@link HttpMount}, which ask for a
 *       credential themselves).
 * </ol>
 *
 * Loopback names and origins are always accepted, as are the bind address and the {@code
 * --allow-origin} origins and their hosts. A wildcard bind (0.0.0.0, ::) accepts any Host: the
 * token, required for such a bind, is then the protection.
 */
final class HttpGuard implements Handler<RoutingContext> {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final Set<String> allowedHosts = new HashSet<>(LOOPBACK_HOSTS);
  private final Set<String> allowedOrigins = new HashSet<>();
  private final boolean anyHost;
  private final byte[] token;
  private final BooleanSupplier draining;
  private final List<HttpMount> mounts;

  HttpGuard(String bindHost, List<String> origins, String token, BooleanSupplier draining) {
    this(bindHost, origins, token, draining, List.of());
  }

  HttpGuard(String bindHost, List<String> origins, String token, BooleanSupplier draining,
      List<HttpMount> mounts) {
    this.mounts = List.copyOf(mounts);
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
    this.token = token == null || token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
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
    if (origin != null && !originAllowed(origin)) {
      reject(ctx, 403, "Forbidden: Origin not allowed");
      return;
    }
    if (token != null && !"/healthz".equals(req.path()) && !mounted(req.path()) && !tokenMatches(req)) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      reject(ctx, 401, "Unauthorized: bearer token required");
      return;
    }
    ctx.next();
  }

  /** A mount's own path, or {@code /} (which only redirects to a mount): it asks for credentials. */
  private boolean mounted(String path) {
    for (HttpMount m : mounts) {
      if (m.covers(path)) {
        return true;
      }
    }
    return !mounts.isEmpty() && "/".equals(path);
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

  private boolean tokenMatches(HttpServerRequest req) {
    String auth = req.getHeader("Authorization");
    if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = auth.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    // Constant time, so the comparison leaks nothing about the token.
    return MessageDigest.isEqual(given, token);
  }

  static void reject(RoutingContext ctx, int status, String message) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(JsonRpc.error(null, status == 503 ? JsonRpc.INTERNAL_ERROR : JsonRpc.INVALID_REQUEST,
            message).encode());
  }
}
