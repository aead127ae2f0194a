package dev.gram.access;

/**
 * A request refused before it reached MCP: 401 when it proves no identity (no credential, an
 * unknown, revoked, expired or forged one, a token for another audience or from another issuer),
 * 403 when the identity it proves is granted none of this server's scopes. It carries the HTTP
 * status, the {@code WWW-Authenticate} challenge to send, a short reason for metrics and logs
 * ({@code missing_token}, {@code invalid_token}, {@code expired}, {@code wrong_audience}, …), and
 * a message for the client. Never the credential itself.
 */
public final class Refusal extends RuntimeException {
  private final int status;
  private final String reason;
  private final String challenge;
  private final String agent;

  public Refusal(int status, String reason, String challenge, String message) {
    this(status, reason, challenge, message, null);
  }

  /** @param agent the agent the credential named (a valid token without this server's scopes), or null */
  public Refusal(int status, String reason, String challenge, String message, String agent) {
    super(message, null, false, false);
    this.status = status;
    this.reason = reason;
    this.challenge = challenge;
    this.agent = agent;
  }

  /** The agent the refused credential named, or null when it proved no name. */
  public String agent() {
    return agent;
  }

  /** 401 or 403. */
  public int status() {
    return status;
  }

  /** The label refused requests are counted and logged under. */
  public String reason() {
    return reason;
  }

  /** The {@code WWW-Authenticate} header value. */
  public String challenge() {
    return challenge;
  }
}
