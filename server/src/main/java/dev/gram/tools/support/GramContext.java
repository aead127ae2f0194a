package dev.gram.tools.support;

import dev.gram.index.IndexStatus;
import dev.gram.server.ServerConfig;
import dev.gram.store.Vault;
import io.vertx.core.Vertx;
import java.time.Clock;

/**
 * What every tool may use: the vault (documents and writes), the search index's status, the
 * server's settings and clock.
 */
public record GramContext(
    Vertx vertx, Vault vault, IndexStatus index, ServerConfig config, Clock clock) {
}
