package dev.gram.server;

import dev.gram.access.Authenticator;
import dev.gram.access.Identity;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call, as the flags say: the authenticator every transport and the web view ask, the
 * RFC 9728 metadata when OAuth is on (else null), and the local caller (stdio, and HTTP without
 * credentials when none are required), narrowed by {@code --approve}.
 */
record Callers(Authenticator authenticator, JsonObject resourceMetadata, Identity local) {
  private static final Logger LOG = LoggerFactory.getLogger(Callers.class);

  /** How often a running server re-reads its agents file. */
  static final long AGENTS_RELOAD_MS = 1_000;

  /**
   * From the flags: the agents file (a bad one stops the start with one line naming it and the
   * fault), the OAuth issuer (discovered now; unreachable, the start stops), the shared token;
   * with none of them, the local caller alone.
   */
  static Future<Callers> fromFlags(Vertx vertx, ServerConfig config) {
    ServerConfig.Auth auth = config.auth();
    Identity local = Identity.local(auth.localApprovals());
    dev.gram.auth.AgentDirectory agents = null;
    if (auth.agents() != null) {
      try {
        agents = dev.gram.auth.AgentDirectory.load(auth.agents());
      } catch (dev.gram.auth.AgentsFile.BadFile e) {
        return Future.failedFuture(new StartupChecks.StartupException(e.getMessage()));
      }
      agents.watch(vertx, AGENTS_RELOAD_MS);
    }
    Future<dev.gram.auth.OAuthResource> oauth = Future.succeededFuture();
    if (auth.oauthIssuer() != null) {
      oauth = dev.gram.auth.OAuthResource.start(vertx,
              new dev.gram.auth.OAuthSettings(auth.oauthIssuer(), auth.resource(), auth.agentClaims()))
          .recover(e -> Future.failedFuture(new StartupChecks.StartupException(e.getMessage())));
    }
    dev.gram.auth.AgentDirectory agentsFile = agents;
    return oauth.map(o -> {
      dev.gram.auth.Credentials credentials = new dev.gram.auth.Credentials(config.token(), agentsFile, o);
      Authenticator authenticator = credentials.required() ? credentials : Authenticator.open(local);
      LOG.info("callers: {}{}", authenticator.mode(),
          auth.approve().isEmpty() ? "" : "; the local caller reaches " + auth.localApprovals());
      return new Callers(authenticator, o == null ? null : o.metadata(), local);
    });
  }

}
