package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/**
 * The 2026-07-28 caching hints ({@code ttlMs}, {@code cacheScope}) and result shape, in one place.
 * What never changes while the server runs (tools, templates, prompts) may be cached for {@link
 * ModernEra#LIST_TTL_MS}; documents change with every write, so their list and their reads carry
 * a TTL of zero: subscriptions, not caches, tell a client when to read again. Vault content is for
 * the clients this server admits, so it is {@code private}.
 */
final class CacheHints {
  private CacheHints() {}

  static final long DOCUMENTS_TTL_MS = 0;

  /** Finishes a result for its era: unchanged for legacy, shaped and hinted for 2026-07-28. */
  static JsonObject finish(JsonObject result, Era era, ServerInfo info, long ttlMs, String scope) {
    if (era == Era.MODERN) {
      result
          .put("resultType", "complete")
          .put("ttlMs", ttlMs)
          .put("cacheScope", scope)
          .put("_meta", info.resultMeta());
    }
    return result;
  }

  static JsonObject stable(JsonObject result, Era era, ServerInfo info) {
    return finish(result, era, info, ModernEra.LIST_TTL_MS, "public");
  }

  static JsonObject documents(JsonObject result, Era era, ServerInfo info) {
    return finish(result, era, info, DOCUMENTS_TTL_MS, "private");
  }
}
