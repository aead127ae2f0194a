package dev.gram.auth;

import java.util.List;

/**
 * How this server takes OAuth access tokens.
 *
 * @param issuer the authorization server it trusts ({@code --oauth-issuer}), exactly as its
 *     metadata and its tokens' {@code iss} give it
 * @param resource this server's canonical URI ({@code --resource}), which a token's {@code aud}
 *     must hold (RFC 8707), e.g. {@code https://gram.example.com/mcp}
 * @param agentClaims the claims that name the agent, first present wins ({@code
 *     --oauth-agent-claim}; by default {@code client_id}, then {@code azp}, then {@code sub})
 */
public record OAuthSettings(String issuer, String resource, List<String> agentClaims) {
  public static final List<String> DEFAULT_AGENT_CLAIMS = List.of("client_id", "azp", "sub");

  /** Read everything. */
  public static final String READ = "gram:read";
  /** Read and write everything. */
  public static final String WRITE = "gram:write";

  /** Where RFC 9728 puts this resource's metadata: the well-known path before the resource's path. */
  public String metadataUrl() {
    java.net.URI uri = java.net.URI.create(resource);
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String authority = uri.getScheme() + "://" + uri.getRawAuthority();
    return authority + "/.well-known/oauth-protected-resource" + path;
  }
}
