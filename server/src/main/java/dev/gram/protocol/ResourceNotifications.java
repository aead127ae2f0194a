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

  /**
   * {@link #updated} as JSON text. A change reaches every subscriber as the same object, so its
   * text is encoded once and kept in a small ring (by identity) while the subscribers' deliveries
   * run; a 2026-07-28 subscription's id is spliced into that text, not encoded again.
   */
  static String updatedText(ResourceChange c, Object subscriptionId) {
    Encoded e = encoded(c);
    return subscriptionId == null ? e.legacy() : e.withSubscription(subscriptionId);
  }

  static String listChangedText(Object subscriptionId) {
    return listChanged(subscriptionId).encode();
  }

  /** One change's notification, encoded once: whole, and cut open where a subscription id goes. */
  private record Encoded(ResourceChange change, String legacy, String open) {
    String withSubscription(Object id) {
      // The id is a JSON-RPC id: a string or a number, encoded as JSON.
      return open + io.vertx.core.json.Json.encode(id) + "}}}";
    }
  }

  private static final int RING = 64;
  private static final java.util.concurrent.atomic.AtomicReferenceArray<Encoded> RECENT =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(RING);

  private static Encoded encoded(ResourceChange c) {
    int slot = System.identityHashCode(c) & (RING - 1);
    Encoded e = RECENT.get(slot);
    if (e != null && e.change() == c) {
      return e;
    }
    String legacy = updated(c, null).encode();
    // The message ends with the _meta object, the last member of params, which is the last member
    // of the message: "…}}}". A subscription's id goes in as the last member of _meta.
    String open = legacy.substring(0, legacy.length() - 3) + ",\"" + MetaKeys.SUBSCRIPTION_ID + "\":";
    e = new Encoded(c, legacy, open);
    RECENT.set(slot, e);
    return e;
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
