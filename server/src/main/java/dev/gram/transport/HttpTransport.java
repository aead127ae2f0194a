package dev.gram.transport;

import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the server, one Vert.x Web router:
 *
 * <ul>
 *   <li>{@code /mcp} — Streamable HTTP, both protocol eras ({@link StreamableHttp});
 *   <li>{@code /sse} and {@code /message} — the 2024-11-05 HTTP+SSE transport ({@link LegacySse});
 *   <li>{@code /healthz} — liveness, {@code {"status":"ok"}};
 *   <li>{@code /metrics} — Prometheus text from the server's Micrometer registry;
 *   <li>{@code /.well-known/oauth-protected-resource} (and its form suffixed with the resource's
 *       path) — RFC 9728 metadata, when the server takes OAuth tokens ({@link ResourceMetadata});
 *   <li>each {@link HttpMount} under its prefix ({@code /ui}), with {@code /} redirecting to the
 *       first; a mount asks for its visitors' credentials itself, through the same authenticator.
 * </ul>
 *
 * Every request first passes {@link HttpGuard}, then {@link HttpAuth}. Once bound, the verticle prints exactly one line to
 * stderr, {@code gram-mcp: listening on http://<host>:<port>/mcp}, which scripts and tests parse.
 */
public final class HttpTransport extends VerticleBase implements Transport {
  private static final Logger LOG = LoggerFactory.getLogger(HttpTransport.class);
  /** Legacy sessions nobody touched for this long are ended. */
  static final long SESSION_IDLE_MS = TimeUnit.HOURS.toMillis(1);

  private final McpDispatcher dispatcher;
  private final ServerMetrics metrics;
  private final HttpOptions options;
  private final List<HttpMount> mounts;
  private volatile boolean draining;
  private HttpServer server;
  private StreamableHttp streamable;
  private LegacySse sse;
  private long sweeper = -1;

  public HttpTransport(McpDispatcher dispatcher, ServerMetrics metrics, HttpOptions options) {
    this(dispatcher, metrics, options, List.of());
  }

  /** Whether a mount (or the redirect to one) serves this path: it checks credentials itself. */
  private boolean mounted(String path) {
    if (mounts.isEmpty()) {
      return false;
    }
    if ("/".equals(path)) {
      return true;
    }
    for (HttpMount m : mounts) {
      if (path.equals(m.prefix()) || path.startsWith(m.prefix() + "/")) {
        return true;
      }
    }
    return false;
  }

  /** @param mounts pages served beside {@code /mcp} (the web view), each under its own prefix */
  public HttpTransport(
      McpDispatcher dispatcher, ServerMetrics metrics, HttpOptions options, List<HttpMount> mounts) {
    this.dispatcher = dispatcher;
    this.metrics = metrics;
    this.options = options;
    this.mounts = List.copyOf(mounts);
  }

  @Override
  public Future<?> start() {
    long idleSeconds = Math.max(1, options.idleTimeout().toSeconds());
    long keepAliveMs = Math.max(500, Math.min(15_000, idleSeconds * 1000 / 2));
    streamable = new StreamableHttp(vertx, dispatcher, keepAliveMs);
    sse = new LegacySse(vertx, dispatcher, keepAliveMs);
    metrics.sessions("http", streamable::openSessions);
    metrics.sessions("sse", sse::openSessions);

    Router router = Router.router(vertx);
    // First, so that refused requests count too.
    router.route().handler(ctx -> {
      ctx.addEndHandler(v -> metrics.httpRequest(ctx.request().method().name(), ctx.response().getStatusCode()));
      ctx.next();
    });
    router.route().handler(new HttpGuard(options.host(), options.allowedOrigins(), () -> draining));
    router.route().handler(new HttpAuth(options.authenticator(), metrics, this::mounted));
    BodyHandler body =
        BodyHandler.create(false).setHandleFileUploads(false).setBodyLimit(options.maxBodyBytes());

    // Whatever a handler or the body reader could not take (a multipart form too large to decode,
    // a body over the limit) still gets a JSON-RPC answer, never Vert.x's plain-text page.
    router.route().failureHandler(HttpTransport::failure);

    router.get("/healthz").handler(ctx -> {
      JsonObject health = new JsonObject().put("status", "ok");
      if (options.health() != null) {
        health.mergeIn(options.health().get());
      }
      json(ctx, 200, health);
    });
    router.get("/metrics").handler(metricsHandler(metrics.registry()));
    if (options.resourceMetadata() != null) {
      ResourceMetadata metadata = new ResourceMetadata(options.resourceMetadata());
      for (String path : metadata.paths()) {
        router.get(path).handler(metadata::serve);
      }
    }

    router.post("/mcp").handler(body).handler(streamable::post);
    router.get("/mcp").handler(streamable::get);
    router.delete("/mcp").handler(streamable::delete);
    router.route("/mcp").handler(ctx -> methodNotAllowed(ctx, "GET, POST, DELETE"));

    router.get("/sse").handler(sse::open);
    router.route("/sse").handler(ctx -> methodNotAllowed(ctx, "GET"));
    router.post(LegacySse.MESSAGE_PATH).handler(body).handler(sse::post);
    router.route(LegacySse.MESSAGE_PATH).handler(ctx -> methodNotAllowed(ctx, "POST"));

    for (HttpMount mount : mounts) {
      mount.mount(vertx, router);
    }
    if (!mounts.isEmpty()) {
      String home = mounts.get(0).prefix() + "/";
      router.get("/").handler(ctx -> ctx.response().setStatusCode(302).putHeader("Location", home).end());
    }

    HttpServerOptions serverOptions =
        new HttpServerOptions()
            .setHost(options.host())
            .setPort(options.port())
            .setIdleTimeout((int) idleSeconds)
            .setIdleTimeoutUnit(TimeUnit.SECONDS);
    return vertx
        .createHttpServer(serverOptions)
        .requestHandler(router)
        .listen()
        .onSuccess(
            s -> {
              server = s;
              sweeper = vertx.setPeriodic(60_000, t -> streamable.expire(SESSION_IDLE_MS));
              String host = options.host().contains(":") && !options.host().startsWith("[")
                  ? "[" + options.host() + "]" : options.host();
              // The one line scripts and tests wait for; printed, not logged, so its form is fixed.
              System.err.println("gram-mcp: listening on http://" + host + ":" + s.actualPort() + "/mcp");
              System.err.flush();
            });
  }

  private static io.vertx.core.Handler<RoutingContext> metricsHandler(PrometheusMeterRegistry r) {
    return PrometheusScrapingHandler.create(r);
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return server == null ? -1 : server.actualPort();
  }

  @Override
  public Future<Void> quiesce() {
    draining = true;
    // GET streams carry nothing but keep-alives; SSE connections stay until stop() so answers
    // to calls still in flight can reach their clients.
    streamable.endStreams();
    mounts.forEach(HttpMount::quiesce);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
    }
    if (sse != null) {
      sse.endAll();
    }
    return server == null ? Future.succeededFuture() : server.close();
  }

  private static void failure(RoutingContext ctx) {
    if (ctx.response().headWritten()) {
      // An SSE stream or an answer was already under way: all that is left is to end it.
      if (!ctx.response().ended()) {
        ctx.response().end();
      }
      return;
    }
    int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
    JsonObject error;
    if (status == 413) {
      error = JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid Request: the body is larger than this server accepts");
    } else if (status < 500) {
      status = 400;
      error = JsonRpc.error(null, JsonRpc.PARSE_ERROR,
          "Parse error: the body could not be read as one JSON-RPC message (send application/json)");
    } else {
      LOG.warn("HTTP request failed: {}", String.valueOf(ctx.failure()));
      error = JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "Internal error");
    }
    json(ctx, status, error);
  }

  private static void methodNotAllowed(RoutingContext ctx, String allow) {
    ctx.response().setStatusCode(405).putHeader("Allow", allow).end();
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(body.encode());
  }
}
