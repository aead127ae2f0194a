package dev.gram.access;

import io.vertx.core.Future;

/**
 * Turns the credential a request carries into the {@link Identity} it proves. One per server,
 * built from its flags ({@code --token}, {@code --agents}, {@code --oauth-issuer}); every HTTP
 * request but the public ones ({@code /healthz}, the protected-resource metadata) goes through it
 * before anything else sees the request. Usable by any front end: a credential resolves to an
 * identity with approvals, whoever presents it.
 */
public interface Authenticator {

  /**
   * The identity {@code authorization} (the whole {@code Authorization} header, or null when
   * there is none) proves; a failed future with a {@link Refusal} when it proves none. Completes
   * at once unless a key must be fetched (an OAuth issuer's new signing key).
   */
  Future<Identity> authenticate(String authorization);

  /** True when requests must carry a credential (false: open loopback, every caller local). */
  boolean required();

  /** How callers are recognized, for {@code status}, metrics and logs: none, token, agents, oauth. */
  String mode();

  /** Everyone is the local caller with every approval: loopback HTTP with no credentials set. */
  static Authenticator open() {
    return open(Identity.local());
  }

  /** Everyone is {@code local}: loopback HTTP with no credentials set, narrowed by {@code --approve}. */
  static Authenticator open(Identity local) {
    return new Authenticator() {
      @Override
      public Future<Identity> authenticate(String authorization) {
        return Future.succeededFuture(local);
      }

      @Override
      public boolean required() {
        return false;
      }

      @Override
      public String mode() {
        return "none";
      }
    };
  }
}
