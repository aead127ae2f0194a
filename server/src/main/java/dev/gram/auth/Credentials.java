package dev.gram.auth;

import dev.gram.access.Authenticator;
import dev.gram.access.Identity;
import dev.gram.access.Refusal;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's {@link Authenticator}: every kind of credential its flags allow, tried in one
 * order. A bearer credential shaped like a JWT goes to the OAuth issuer (when one is set);
 * anything else is compared with the {@code --token} and looked up in the agents file. A request
 * without a credential, or with one nobody recognizes, is 401; with OAuth set, its challenge names
 * the protected-resource metadata so a client can find the issuer.
 */
public final class Credentials implements Authenticator {
  private final SharedToken token;
  private final AgentDirectory agents;
  private final OAuthResource oauth;

  /**
   * @param token the shared {@code --token}, or null
   * @param agents the agents file, or null
   * @param oauth the OAuth resource server, or null
   */
  public Credentials(String token, AgentDirectory agents, OAuthResource oauth) {
    this.token = token == null || token.isBlank() ? null : new SharedToken(token);
    this.agents = agents;
    this.oauth = oauth;
  }

  @Override
  public Future<Identity> authenticate(String authorization) {
    String credential = Bearer.credential(authorization);
    if (credential == null) {
      return Future.failedFuture(Bearer.missing(challenge()));
    }
    if (oauth != null && Bearer.looksLikeJwt(credential)) {
      return oauth.authenticate(credential);
    }
    Identity id = token == null ? null : token.match(credential);
    if (id == null && agents != null) {
      id = agents.match(credential);
    }
    if (id != null) {
      return Future.succeededFuture(id);
    }
    return Future.failedFuture(
        new Refusal(401, agents != null ? "unknown_agent" : "invalid_token",
            oauth != null ? oauth.invalidChallenge() : "Bearer error=\"invalid_token\"",
            "the bearer token is not one this server knows (revoked, mistyped, or for another server)"));
  }

  private String challenge() {
    return oauth != null ? oauth.challenge() : "Bearer";
  }

  @Override
  public boolean required() {
    return token != null || agents != null || oauth != null;
  }

  @Override
  public String mode() {
    List<String> modes = new ArrayList<>();
    if (token != null) {
      modes.add("token");
    }
    if (agents != null) {
      modes.add("agents");
    }
    if (oauth != null) {
      modes.add("oauth");
    }
    return modes.isEmpty() ? "none" : String.join("+", modes);
  }
}
