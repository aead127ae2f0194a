package dev.gram.protocol;

import dev.gram.tools.spi.ResourceChange;
import io.vertx.core.json.JsonObject;

/**
 * The notifications a subscription sends. {@code notifications/resources/updated} names the
 * document's URI and, in {@code _meta}, enough to act on at once: the path, the new revision and
 * hash (to patch against), who wrote it and the revision's {@code +added ~changed -removed}
 * summary (to decide whether to read). A 2026-07-28 subscription's messages also carry its id.
 */
final class ResourceNotifications {
  static final String UPDATED = "notifications/resources/updated";
  static final String LIST_CHANGED = "notifications/resources/list_changed";

  private ResourceNotifications() {}

  /** @param subscriptionId the {@code subscriptions/listen} request's id, or null (legacy) */
  static JsonObject updated(ResourceChange c, Object subscriptionId) {
    JsonObject meta = new JsonObject().put("path", c.path()).put("change", kind(c));
    if (c.rev() >= 0) {
      meta.put("rev", c.rev());
    }
    if (c.hash() != null) {
      meta.put("hash", c.hash());
    }
    if (c.by() != null) {
      meta.put("by", c.by());
    }
    if (c.summary() != null) {
      meta.put("summary", c.summary());
    }
    if (subscriptionId != null) {
      meta.put(MetaKeys.SUBSCRIPTION_ID, subscriptionId);
    }
    return JsonRpc.notification(UPDATED, new JsonObject().put("uri", c.uri()).put("_meta", meta));
  }

  static JsonObject listChanged(Object subscriptionId) {
    JsonObject params = new JsonObject();
    if (subscriptionId != null) {
      params.put("_meta", new JsonObject().put(MetaKeys.SUBSCRIPTION_ID, subscriptionId));
    }
    return JsonRpc.notification(LIST_CHANGED, params);
  }

  private static String kind(ResourceChange c) {
    return switch (c.kind()) {
      case CREATED -> "created";
      case UPDATED -> "updated";
      case REMOVED -> "removed";
    };
  }
}
