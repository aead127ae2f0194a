package dev.gram.transport;

import dev.gram.access.Authenticator;
import dev.gram.access.Identity;
import dev.gram.access.Refusal;
import dev.gram.protocol.JsonRpc;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who sent a request: the second handler of every HTTP request, after {@link HttpGuard}. The
 * {@link Authenticator} turns the {@code Authorization} header into an {@link Identity}, which the
 * MCP endpoints then give the channel the request uses; a refusal is answered here, 401 or 403
 * with its {@code WWW-Authenticate} challenge, and never reaches MCP. {@code /healthz} and the
 * protected-resource metadata are public. Refusals are counted by reason and logged with the
 * agent's name when the credential named one; the credential itself is never logged.
 *
 * <p>The request is paused while the credential is checked (which may fetch an issuer's new
 * signing key), so its body waits for the body handler behind this one.
 */
final class HttpAuth implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(HttpAuth.class);
  private static final String IDENTITY = "gram.identity";

  private final Authenticator authenticator;
  private final ServerMetrics metrics;
  /** Paths served by a mount that asks for its visitors' credentials itself (the web view's log-in). */
  private final java.util.function.Predicate<String> selfGuarded;

  HttpAuth(Authenticator authenticator, ServerMetrics metrics) {
    this(authenticator, metrics, path -> false);
  }

  HttpAuth(Authenticator authenticator, ServerMetrics metrics, java.util.function.Predicate<String> selfGuarded) {
    this.authenticator = authenticator;
    this.metrics = metrics;
    this.selfGuarded = selfGuarded;
  }

  /** The identity {@link HttpAuth} proved for this request (the local caller when none was needed). */
  static Identity identity(RoutingContext ctx) {
    Identity id = ctx.get(IDENTITY);
    return id == null ? Identity.local() : id;
  }

  /** The paths anyone may read: liveness and the protected-resource metadata. */
  static boolean isPublic(String path) {
    return "/healthz".equals(path) || path.startsWith(ResourceMetadata.WELL_KNOWN);
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (isPublic(req.path()) || selfGuarded.test(req.path())) {
      ctx.next();
      return;
    }
    if (!authenticator.required()) {
      // No credentials to check: the caller is the local one, and nothing waits.
      authenticator.authenticate(null).onSuccess(id -> ctx.put(IDENTITY, id));
      ctx.next();
      return;
    }
    req.pause();
    authenticator
        .authenticate(req.getHeader("Authorization"))
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                ctx.put(IDENTITY, ar.result());
                ctx.next();
                if (req.method() != HttpMethod.POST) {
                  // No body handler follows: nothing else would let the request go on.
                  req.resume();
                }
                return;
              }
              Refusal refusal =
                  ar.cause() instanceof Refusal r
                      ? r
                      : new Refusal(401, "invalid_token", "Bearer error=\"invalid_token\"", "Unauthorized");
              if (!(ar.cause() instanceof Refusal)) {
                LOG.warn("authentication failed: {}", ar.cause().toString());
              }
              refuse(ctx, refusal);
            });
  }

  private void refuse(RoutingContext ctx, Refusal refusal) {
    metrics.refused(refusal.reason());
    LOG.info("refused {} {} for agent {} (HTTP {}): {}", ctx.request().method(), ctx.request().path(),
        refusal.agent() == null ? "(unknown)" : refusal.agent(), refusal.status(), refusal.reason());
    ctx.request().resume();
    if (ctx.response().ended()) {
      return;
    }
    JsonObject body = JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
        (refusal.status() == 403 ? "Forbidden: " : "Unauthorized: ") + refusal.getMessage());
    ctx.response()
        .setStatusCode(refusal.status())
        .putHeader("WWW-Authenticate", refusal.challenge())
        .putHeader("Content-Type", "application/json")
        .end(body.encode());
  }
}
