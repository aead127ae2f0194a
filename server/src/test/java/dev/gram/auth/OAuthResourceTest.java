package dev.gram.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import dev.gram.testing.AgentClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gram-mcp as an OAuth 2.1 resource server against a real authorization server over HTTP
 * (mock-oauth2-server in this JVM, on a loopback port), with tokens obtained by client
 * credentials at its token endpoint: the issuer discovered from its metadata, its keys fetched,
 * a good token's agent and scopes honoured; a token for another audience, from another issuer,
 * expired, with a broken signature, unsigned ({@code alg: none}) or without this server's scopes
 * refused with 401 or 403 and the challenge the MCP specification asks for; the protected-resource
 * metadata published; a rotated signing key picked up on its first use.
 */
class OAuthResourceTest {
  static final String RESOURCE = "https://gram.test/mcp";
  static final String METADATA = "https://gram.test/.well-known/oauth-protected-resource/mcp";
  static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir static Path dir;
  static MockOAuth2Server issuer;
  static RotatingKeys keys = new RotatingKeys();
  static GramServer server;
  static URI base;
  static URI mcp;

  /** The issuer's signing keys, one per generation, with key ids that change when rotated. */
  static final class RotatingKeys extends KeyProvider {
    final AtomicInteger generation = new AtomicInteger(1);
    final Map<String, JWK> made = new ConcurrentHashMap<>();

    @Override
    public JWK signingKey(String issuerId) {
      return made.computeIfAbsent(issuerId + "-" + generation.get(), kid -> {
        try {
          return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (com.nimbusds.jose.JOSEException e) {
          throw new IllegalStateException(e);
        }
      });
    }
  }

  @BeforeAll
  static void start() throws Exception {
    issuer = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
    issuer.start(InetAddress.getByName("127.0.0.1"), 0);
    ServerConfig config = ServerConfig.parse(new String[] {
        "--vault", dir.resolve("vault").toString(), "--index", dir.resolve("index").toString(),
        "--no-welcome", "--no-semantic", "--no-stdio", "--port", "0",
        "--oauth-issuer", issuerUrl("gram"), "--resource", RESOURCE}, Map.of());
    server = GramServer.start(config, InputStream.nullInputStream(), new ByteArrayOutputStream())
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    base = URI.create("http://127.0.0.1:" + server.httpPort());
    mcp = base.resolve("/mcp");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    if (issuer != null) {
      issuer.shutdown();
    }
  }

  static String issuerUrl(String id) {
    String url = issuer.issuerUrl(id).toString();
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * A token from {@code issuerId}'s token endpoint by client credentials: the issuer signs it with
   * the audience, scopes and lifetime given.
   */
  static String token(String issuerId, String clientId, List<String> audience, String scope, long lifetimeSeconds)
      throws Exception {
    issuer.enqueueCallback(new DefaultOAuth2TokenCallback(issuerId, clientId, "JWT", audience,
        Map.of("scope", scope, "client_id", clientId), lifetimeSeconds));
    String form = "grant_type=client_credentials&client_id=" + clientId + "&client_secret=secret&scope="
        + URLEncoder.encode(scope, StandardCharsets.UTF_8) + "&resource=" + URLEncoder.encode(RESOURCE, StandardCharsets.UTF_8);
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(issuer.tokenEndpointUrl(issuerId).toString()))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getString("access_token");
  }

  static String good(String clientId, String scope) throws Exception {
    return token("gram", clientId, List.of(RESOURCE), scope, 3600);
  }

  static HttpResponse<String> projects(String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(mcp)
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "gram_projects")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", 1)
            .put("method", "tools/call").put("params", new JsonObject().put("name", "gram_projects")
                .put("arguments", new JsonObject()).put("_meta", dev.gram.testing.StdioClient.modernMeta("probe"))).encode()));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static void refused(HttpResponse<String> r, int status, String error) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
    assertThat(challenge).startsWith("Bearer ").contains("resource_metadata=\"" + METADATA + "\"");
    if (error != null) {
      assertThat(challenge).contains("error=\"" + error + "\"");
    }
    assertThat(r.body()).doesNotContain("zebra");
  }

  @Test
  void aGoodTokenNamesItsAgentAndGrantsItsScopes() throws Exception {
    String token = good("planner", "gram:write:alpha gram:read:shared");
    AgentClient c = AgentClient.modernHttp(mcp, token, "claims-to-be-someone-else");
    JsonObject created = c.request("tools/call", new JsonObject().put("name", "gram_create").put("arguments",
        new JsonObject().put("path", "alpha/zebra.gram").putNull("base_revision").put("title", "Zebra").put("content", "z")));
    assertThat(created.getJsonObject("result").getBoolean("isError", false)).as(created.encode()).isFalse();
    JsonObject changes = c.request("tools/call", new JsonObject().put("name", "gram_changes").put("arguments",
        new JsonObject().put("path", "alpha/zebra.gram").put("since_revision", 0))).getJsonObject("result");
    JsonObject range = c.request("tools/call", new JsonObject().put("name", "gram_range").put("arguments",
        new JsonObject().put("path", "alpha/zebra.gram"))).getJsonObject("result").getJsonObject("structuredContent");
    assertThat(range.getJsonArray("events").getJsonObject(0).getString("agent")).isEqualTo("planner");
    JsonObject write = c.request("tools/call", new JsonObject().put("name", "gram_create").put("arguments",
        new JsonObject().put("path", "shared/x.gram").putNull("base_revision").put("title", "X").put("content", "x")))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertThat(write.getJsonObject("error").getString("code")).isEqualTo("E_READ_ONLY");
    JsonObject other = c.request("tools/call", new JsonObject().put("name", "gram_list").put("arguments",
        new JsonObject().put("path", "beta"))).getJsonObject("result").getJsonObject("structuredContent");
    assertThat(other.getJsonObject("error").getString("code")).isEqualTo("E_PATH");
    // Session era too: the token on every request, the session bound to its agent.
    AgentClient legacy = AgentClient.legacyHttp(mcp, token, "legacy-client");
    JsonObject list = legacy.request("tools/call", new JsonObject().put("name", "gram_list").put("arguments", new JsonObject()));
    assertThat(list.encode()).contains("alpha/zebra.gram");
    assertThat(changes.encode()).doesNotContain("claims-to-be-someone-else");
  }

  @Test
  void noTokenIsAskedForWithTheMetadataAndTheScopes() throws Exception {
    HttpResponse<String> r = projects(null);
    refused(r, 401, null);
    assertThat(r.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("scope=\"gram:read gram:write\"");
  }

  @Test
  void aTokenForAnotherAudienceIsRefused() throws Exception {
    refused(projects(token("gram", "planner", List.of("https://other.example/mcp"), "gram:write", 3600)), 401, "invalid_token");
  }

  @Test
  void aTokenOfAnotherIssuerIsRefused() throws Exception {
    refused(projects(token("elsewhere", "planner", List.of(RESOURCE), "gram:write", 3600)), 401, "invalid_token");
  }

  @Test
  void anExpiredTokenIsRefused() throws Exception {
    refused(projects(token("gram", "planner", List.of(RESOURCE), "gram:write", -120)), 401, "invalid_token");
  }

  @Test
  void aTokenWhoseSignatureDoesNotVerifyIsRefused() throws Exception {
    String[] parts = good("planner", "gram:read").split("\\.");
    JsonObject claims = new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
    claims.put("scope", "gram:write");
    String forged = parts[0] + "." + b64(claims.encode()) + "." + parts[2];
    refused(projects(forged), 401, "invalid_token");
  }

  @Test
  void anUnsignedTokenIsRefused() throws Exception {
    String[] parts = good("planner", "gram:write").split("\\.");
    String header = b64(new JsonObject().put("alg", "none").put("typ", "JWT").put("kid", "gram-1").encode());
    refused(projects(header + "." + parts[1] + "."), 401, "invalid_token");
    refused(projects(header + "." + parts[1]), 401, "invalid_token");
  }

  @Test
  void aTokenWithoutThisServersScopesIsForbidden() throws Exception {
    HttpResponse<String> r = projects(good("planner", "openid profile"));
    refused(r, 403, "insufficient_scope");
    assertThat(r.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("scope=\"gram:read\"");
  }

  @Test
  void theProtectedResourceMetadataIsPublished() throws Exception {
    for (String path : List.of("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp")) {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      JsonObject meta = new JsonObject(r.body());
      assertThat(meta.getString("resource")).isEqualTo(RESOURCE);
      assertThat(meta.getJsonArray("authorization_servers")).containsExactly(issuerUrl("gram"));
      assertThat(meta.getJsonArray("scopes_supported")).contains("gram:read", "gram:write");
    }
  }

  @Test
  void refusalsAreCountedByReason() throws Exception {
    projects(token("gram", "planner", List.of("https://other.example/mcp"), "gram:write", 3600));
    projects(good("planner", "openid"));
    HttpResponse<String> metrics = HTTP.send(HttpRequest.newBuilder(base.resolve("/metrics"))
        .header("Authorization", "Bearer " + good("ops", "gram:read")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body()).contains("gram_refused_total{reason=\"wrong_audience\"")
        .contains("gram_refused_total{reason=\"insufficient_scope\"").contains("gram_auth_mode{mode=\"oauth\"}");
  }

  @Test
  void aRotatedSigningKeyIsFetchedOnItsFirstUse() throws Exception {
    assertThat(projects(good("planner", "gram:read")).statusCode()).isEqualTo(200);
    keys.generation.incrementAndGet();
    // Signed with a key the server has never seen: it fetches the issuer's keys again, once.
    HttpResponse<String> r = projects(good("planner", "gram:read"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  static String b64(String s) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
