package dev.gram.auth;

import dev.gram.access.Approvals;
import dev.gram.access.Identity;
import dev.gram.access.Refusal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.net.URI;
import java.security.SignatureException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server as an OAuth 2.1 resource server (the MCP specification's authorization, 2026-07-28):
 * it takes JWT access tokens from one issuer and turns each into the {@link Identity} of the agent
 * it names, with the approvals its scopes grant ({@link Scopes}).
 *
 * <p>At start the issuer's metadata is discovered (RFC 8414 at the well-known path inserted
 * before the issuer's path, then OpenID Connect discovery at both places), its {@code issuer}
 * must be exactly the configured one, and its {@code jwks_uri} is fetched. Signing keys are kept
 * until a token names a key id they do not hold: then the set is fetched again and the token
 * checked once more. Fetches are at least {@value #REFRESH_SPACING_MS} ms apart (a token that comes
 * sooner waits for the next one), and one fetch serves every request waiting for it, so tokens
 * with made-up key ids cannot make the server hammer the issuer. Signatures are checked by Vert.x's JWT support ({@code vertx-auth-jwt}); symmetric
 * keys a JWKS might carry are left out, and a token is never checked without at least one key
 * (which would accept unsigned tokens).
 *
 * <p>A token is accepted when its signature verifies, {@code iss} is the issuer, {@code aud} holds
 * {@code --resource} (RFC 8707: a token for another resource is never accepted, and never passed
 * on), {@code exp} is present and not past ({@code nbf}, when present, reached), and it names an
 * agent. Anything else is 401 with {@code error="invalid_token"}; a token that grants none of this
 * server's scopes is 403 with {@code error="insufficient_scope"}. Both challenges name the
 * protected-resource metadata.
 */
public final class OAuthResource {
  private static final Logger LOG = LoggerFactory.getLogger(OAuthResource.class);
  static final long REFRESH_SPACING_MS = 3_000;
  private static final long LEEWAY_SECONDS = 10;
  private static final int TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  private final OAuthSettings settings;
  private final HttpClient http;
  private final String jwksUri;
  private volatile JWTAuth verifier;
  private volatile long lastRefresh;
  private Future<Void> refreshing;

  private OAuthResource(Vertx vertx, OAuthSettings settings, HttpClient http, String jwksUri) {
    this.vertx = vertx;
    this.settings = settings;
    this.http = http;
    this.jwksUri = jwksUri;
  }

  /** Discovers the issuer and loads its keys; fails with one sentence saying what went wrong. */
  public static Future<OAuthResource> start(Vertx vertx, OAuthSettings settings) {
    HttpClient http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(TIMEOUT_MS));
    return discover(http, settings.issuer(), metadataUrls(settings.issuer()), 0, new ArrayList<>())
        .compose(meta -> {
          OAuthResource r = new OAuthResource(vertx, settings, http, meta.getString("jwks_uri"));
          return r.refresh().map(r);
        })
        .onFailure(e -> http.close());
  }

  /** Where the issuer's metadata may be, in the order the MCP specification gives clients. */
  static List<String> metadataUrls(String issuer) {
    URI uri = URI.create(issuer);
    String origin = uri.getScheme() + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (path.isEmpty()) {
      return List.of(origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration");
    }
    return List.of(
        origin + "/.well-known/oauth-authorization-server" + path,
        origin + "/.well-known/openid-configuration" + path,
        origin + path + "/.well-known/openid-configuration");
  }

  private static Future<JsonObject> discover(
      HttpClient http, String issuer, List<String> urls, int i, List<String> tried) {
    if (i == urls.size()) {
      return Future.failedFuture(new IllegalStateException("cannot discover the OAuth issuer " + issuer
          + ": no metadata at " + String.join(", ", tried)));
    }
    String url = urls.get(i);
    return getJson(http, url)
        .transform(ar -> {
          if (ar.failed()) {
            tried.add(url + " (" + ar.cause().getMessage() + ")");
            return discover(http, issuer, urls, i + 1, tried);
          }
          JsonObject meta = ar.result();
          if (!issuer.equals(meta.getString("issuer"))) {
            // RFC 8414 §3.3: metadata for another issuer is not this issuer's, whatever served it.
            return Future.failedFuture(new IllegalStateException("the OAuth metadata at " + url + " names the issuer "
                + meta.getString("issuer") + ", not " + issuer + ": give --oauth-issuer exactly as the issuer names itself"));
          }
          if (!(meta.getValue("jwks_uri") instanceof String)) {
            return Future.failedFuture(new IllegalStateException("the OAuth issuer " + issuer
                + " publishes no jwks_uri: its tokens cannot be checked here"));
          }
          return Future.succeededFuture(meta);
        });
  }

  private static Future<JsonObject> getJson(HttpClient http, String url) {
    return http.request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setTimeout(TIMEOUT_MS)
            .putHeader("Accept", "application/json"))
        .compose(req -> req.send())
        .compose(resp -> resp.statusCode() == 200
            ? resp.body()
            : Future.failedFuture("HTTP " + resp.statusCode()))
        .map(body -> body.toJsonObject());
  }

  /** Fetches the signing keys now (at start). */
  private Future<Void> refresh() {
    return refresh(0);
  }

  /**
   * Fetches the signing keys again, no sooner than {@code spacing} ms after the last fetch;
   * concurrent callers share one fetch.
   */
  private synchronized Future<Void> refresh(long spacing) {
    if (refreshing != null) {
      return refreshing;
    }
    Promise<Void> done = Promise.promise();
    refreshing = done.future();
    long wait = Math.max(0, lastRefresh + spacing - System.currentTimeMillis());
    if (wait == 0) {
      fetchKeys(done);
    } else {
      vertx.setTimer(wait, t -> fetchKeys(done));
    }
    return done.future();
  }

  private void fetchKeys(Promise<Void> done) {
    lastRefresh = System.currentTimeMillis();
    getJson(http, jwksUri)
        .map(this::verifierOf)
        .onComplete(ar -> {
          synchronized (this) {
            refreshing = null;
          }
          if (ar.succeeded()) {
            verifier = ar.result();
            done.complete();
          } else {
            LOG.warn("cannot load the signing keys of {} from {}: {}", settings.issuer(), jwksUri, ar.cause().getMessage());
            done.fail(new IllegalStateException("cannot load the OAuth issuer's signing keys from " + jwksUri + ": "
                + ar.cause().getMessage()));
          }
        });
  }

  private JWTAuth verifierOf(JsonObject jwks) {
    List<JsonObject> keys = new ArrayList<>();
    JsonArray all = jwks.getJsonArray("keys", new JsonArray());
    for (Object k : all) {
      if (k instanceof JsonObject key
          && List.of("RSA", "EC", "OKP").contains(key.getString("kty"))
          && (key.getString("use") == null || "sig".equals(key.getString("use")))) {
        keys.add(key);
      }
    }
    if (keys.isEmpty()) {
      throw new IllegalStateException("the key set holds no public signing key");
    }
    // Expiry, issuer and audience are checked below, to say which one failed.
    JWTOptions checks = new JWTOptions().setIgnoreExpiration(true).setLeeway((int) LEEWAY_SECONDS);
    return JWTAuth.create(vertx, new JWTAuthOptions().setJwks(keys).setJWTOptions(checks));
  }

  /** The identity a bearer credential proves, or a failed future with a {@link Refusal}. */
  public Future<Identity> authenticate(String credential) {
    return verify(credential, true).map(this::identity);
  }

  private Future<JsonObject> verify(String credential, boolean mayRefresh) {
    JWTAuth v = verifier;
    return v.authenticate(new TokenCredentials(credential))
        .map(user -> user.attributes().getJsonObject("accessToken"))
        .recover(e -> {
          if (e instanceof NoSuchKeyIdException && mayRefresh) {
            // A key the issuer added since: fetch the set again and check once more.
            return refresh(REFRESH_SPACING_MS).transform(ar -> verify(credential, false));
          }
          return Future.failedFuture(refusal(e));
        });
  }

  private Refusal refusal(Throwable e) {
    if (e instanceof Refusal r) {
      return r;
    }
    if (e instanceof NoSuchKeyIdException) {
      return invalid("unknown_key", "the token is signed with a key the issuer does not publish");
    }
    if (e instanceof SignatureException) {
      return invalid("bad_signature", "the token's signature does not verify");
    }
    String m = String.valueOf(e.getMessage());
    if (m.contains("not signed") || m.contains("\"none\"")) {
      return invalid("unsigned", "the token is not signed");
    }
    return invalid("invalid_token", "the token cannot be read as a signed JWT");
  }

  private Identity identity(JsonObject claims) {
    if (!settings.issuer().equals(claims.getString("iss"))) {
      throw invalid("wrong_issuer", "the token was not issued by " + settings.issuer());
    }
    if (!audienceHolds(claims.getValue("aud"))) {
      throw invalid("wrong_audience", "the token is not meant for " + settings.resource());
    }
    long now = Instant.now().getEpochSecond();
    if (!(claims.getValue("exp") instanceof Number exp)) {
      throw invalid("invalid_token", "the token has no expiry");
    }
    if (exp.longValue() + LEEWAY_SECONDS <= now) {
      throw invalid("expired", "the token has expired");
    }
    if (claims.getValue("nbf") instanceof Number nbf && nbf.longValue() - LEEWAY_SECONDS > now) {
      throw invalid("invalid_token", "the token is not valid yet");
    }
    String agent = null;
    for (String claim : settings.agentClaims()) {
      if (claims.getValue(claim) instanceof String s && !s.isBlank()) {
        agent = s;
        break;
      }
    }
    if (agent == null) {
      throw invalid("invalid_token", "the token names no agent (" + String.join(", ", settings.agentClaims()) + ")");
    }
    Approvals approvals = Scopes.approvals(Scopes.of(claims));
    if (approvals.none()) {
      throw new Refusal(403, "insufficient_scope",
          "Bearer error=\"insufficient_scope\", scope=\"" + OAuthSettings.READ + "\", resource_metadata=\""
              + settings.metadataUrl() + "\", error_description=\"the token grants none of this server's scopes\"",
          "the token grants none of this server's scopes (" + OAuthSettings.READ + ", " + OAuthSettings.WRITE
              + ", gram:read:<folder>, gram:write:<folder>)", agent);
    }
    return Identity.named(agent, Identity.Kind.OAUTH, () -> approvals, Instant.ofEpochSecond(exp.longValue()));
  }

  private boolean audienceHolds(Object aud) {
    List<String> wanted = List.of(settings.resource(), settings.resource() + "/");
    if (aud instanceof String s) {
      return wanted.contains(s);
    }
    if (aud instanceof JsonArray a) {
      for (Object o : a) {
        if (o instanceof String s && wanted.contains(s)) {
          return true;
        }
      }
    }
    return false;
  }

  private Refusal invalid(String reason, String message) {
    return Bearer.invalid("Bearer error=\"invalid_token\", error_description=\"" + message + "\", resource_metadata=\""
        + settings.metadataUrl() + "\"", reason, message);
  }

  /** The challenge of a credential that is not a token of this issuer's. */
  String invalidChallenge() {
    return "Bearer error=\"invalid_token\", resource_metadata=\"" + settings.metadataUrl() + "\"";
  }

  /** The challenge of a request without a token: where the metadata is and what to ask for. */
  public String challenge() {
    return "Bearer resource_metadata=\"" + settings.metadataUrl() + "\", scope=\"" + OAuthSettings.READ + " "
        + OAuthSettings.WRITE + "\"";
  }

  /** The RFC 9728 protected-resource metadata this server publishes. */
  public JsonObject metadata() {
    return new JsonObject()
        .put("resource", settings.resource())
        .put("authorization_servers", new JsonArray().add(settings.issuer()))
        .put("scopes_supported", new JsonArray().add(OAuthSettings.READ).add(OAuthSettings.WRITE))
        .put("bearer_methods_supported", new JsonArray().add("header"))
        .put("resource_name", "gram-mcp");
  }

  public OAuthSettings settings() {
    return settings;
  }
}
