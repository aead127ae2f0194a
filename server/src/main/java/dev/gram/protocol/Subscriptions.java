package dev.gram.protocol;

import dev.gram.access.Identity;
import dev.gram.tools.spi.ResourceChange;
import dev.gram.tools.spi.ResourceScope;
import dev.gram.tools.spi.Resources;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Resource subscriptions in both eras, each one a {@link SubscriberStream}.
 *
 * <ul>
 *   <li><b>2026-07-28</b>: {@code subscriptions/listen} is acknowledged first with the part of its
 *       filter we honour ({@code resourceSubscriptions}, {@code resourcesListChanged}; tools and
 *       prompts never change, so their flags are left out), then carries only what the filter
 *       asked for, each message naming the subscription in {@code _meta}. It lasts until the
 *       client goes away (answered with nothing) or the server shuts down (a final result).
 *   <li><b>Legacy</b>: {@code resources/subscribe} and {@code resources/unsubscribe} add and remove
 *       URIs on the channel's one stream; notifications go to the channel's outbound (stdout, the
 *       session's GET stream, the SSE connection). The stream ends with the channel. Documents
 *       appearing or vanishing under a subscribed URI also send {@code list_changed}.
 * </ul>
 *
 * A URI ending in {@code /} watches a folder (new documents included); {@code gram://} the vault.
 *
 * <p>The caller's approvals apply twice: a URI it may not name is refused with {@code E_PATH} when
 * it subscribes, and every change is checked against its approvals as they are at delivery, so a
 * folder or vault subscription never tells of a document the caller may not read, and an agents
 * file reloaded meanwhile (a folder taken away, an agent revoked) applies to the next change.
 */
final class Subscriptions {
  private final ServerInfo info;
  private final Resources resources;
  private final Set<Listen> open = ConcurrentHashMap.newKeySet();
  private final Map<Channel, ChannelWatch> watches = new ConcurrentHashMap<>();
  private final Refusals refusals;

  /** @param resources null when the server has none: listen is then only acknowledged and held */
  Subscriptions(ServerInfo info, Resources resources, ProtocolMetrics metrics) {
    this.info = info;
    this.resources = resources;
    this.refusals = new Refusals(metrics);
  }

  /** Subscriptions alive now, both eras: for leak checks and metrics. */
  int live() {
    return open.size() + watches.size();
  }

  // ------------------------------------------------------------------ 2026-07-28

  /** @param stream where the acknowledgement and the subscription's messages go */
  Future<Reply> listen(JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream) {
    Object filterValue = req.params().getValue("notifications");
    if (filterValue != null && !(filterValue instanceof JsonObject)) {
      return Future.succeededFuture(
          ResourcesMethods.invalid(req, "notifications must be an object"));
    }
    JsonObject filter = filterValue == null ? new JsonObject() : (JsonObject) filterValue;
    List<ResourceScope> scopes = new ArrayList<>();
    JsonArray honoured = new JsonArray();
    if (resources != null && filter.getValue("resourceSubscriptions") != null) {
      if (!(filter.getValue("resourceSubscriptions") instanceof JsonArray uris)) {
        return Future.succeededFuture(
            ResourcesMethods.invalid(req, "resourceSubscriptions must be an array of URIs"));
      }
      for (Object uri : uris) {
        if (!(uri instanceof String u)) {
          return Future.succeededFuture(
              ResourcesMethods.invalid(req, "resourceSubscriptions must be an array of URIs"));
        }
        try {
          scopes.add(resources.as(channel.caller()).scope(u));
        } catch (RuntimeException e) {
          refusals.note("subscriptions/listen", channel.caller(), e);
          return Future.succeededFuture(ResourceErrors.of(req.id(), e));
        }
        honoured.add(u);
      }
    }
    boolean listChanged =
        resources != null && Boolean.TRUE.equals(filter.getValue("resourcesListChanged"));
    Listen sub = new Listen(req.id(), channel);
    if (!channel.register(req.id(), sub)) {
      return Future.succeededFuture(
          Reply.error(
              req.id(),
              JsonRpc.INVALID_REQUEST,
              "Invalid Request: id already in flight",
              Reply.ErrorKind.INVALID_MESSAGE));
    }
    open.add(sub);
    JsonObject acknowledged = new JsonObject();
    if (!honoured.isEmpty()) {
      acknowledged.put("resourceSubscriptions", honoured);
    }
    if (listChanged) {
      acknowledged.put("resourcesListChanged", true);
    }
    // The acknowledgement is the first message naming the subscription: sent before the stream
    // can hear anything.
    stream.accept(
        JsonRpc.notification(
            "notifications/subscriptions/acknowledged",
            new JsonObject()
                .put("_meta", new JsonObject().put(MetaKeys.SUBSCRIPTION_ID, req.id()))
                .put("notifications", acknowledged)));
    if (!scopes.isEmpty() || listChanged) {
      Outbound out = Outbound.of(stream);
      Object id = req.id();
      sub.stream =
          new SubscriberStream(
              resources.changes(),
              change -> covered(scopes, change),
              change -> readable(channel, change),
              listChanged,
              out,
              (changes, list) -> {
                List<String> texts = new ArrayList<>(changes.size() + 1);
                for (ResourceChange c : changes) {
                  if (readable(channel, c)) {
                    texts.add(ResourceNotifications.updatedText(c, id));
                  }
                }
                if (list) {
                  texts.add(ResourceNotifications.listChangedText(id));
                }
                out.sendEncoded(texts);
              });
      if (sub.reply.future().isComplete()) {
        sub.stream.close();
      }
    }
    return sub.reply.future();
  }

  /**
   * True when the channel's caller may read the changed document now: checked at every delivery,
   * so approvals that changed since the subscription began (or a credential that expired) apply.
   */
  private static boolean readable(Channel channel, ResourceChange change) {
    Identity caller = channel.caller();
    return caller.approvals().mayRead(change.path()) && !caller.expired(java.time.Instant.now());
  }

  private static boolean covered(java.util.Collection<ResourceScope> scopes, ResourceChange change) {
    for (ResourceScope s : scopes) {
      if (s.covers(change.path())) {
        return true;
      }
    }
    return false;
  }

  /** Ends every open {@code subscriptions/listen} with its graceful final result (shutdown). */
  void endAll() {
    for (Listen s : List.copyOf(open)) {
      s.end();
    }
  }

  private final class Listen implements Channel.InFlight {
    final Object id;
    final Channel channel;
    final Promise<Reply> reply = Promise.promise();
    volatile SubscriberStream stream;

    Listen(Object id, Channel channel) {
      this.id = id;
      this.channel = channel;
    }

    @Override
    public void cancel(String reason) {
      stop();
      reply.tryComplete(Reply.CANCELLED);
    }

    void end() {
      stop();
      channel.unregister(id, this);
      JsonObject result =
          new JsonObject()
              .put("resultType", "complete")
              .put("_meta", info.resultMeta().put(MetaKeys.SUBSCRIPTION_ID, id));
      reply.tryComplete(Reply.result(id, result));
    }

    private void stop() {
      open.remove(this);
      SubscriberStream s = stream;
      if (s != null) {
        s.close();
      }
    }
  }

  // ------------------------------------------------------------------ legacy

  Reply subscribe(JsonRpc.Request req, Channel channel) {
    if (!(req.params().getValue("uri") instanceof String uri)) {
      return ResourcesMethods.invalid(req, "uri must be a string");
    }
    ResourceScope scope;
    try {
      scope = resources.as(channel.caller()).scope(uri);
    } catch (RuntimeException e) {
      refusals.note("resources/subscribe", channel.caller(), e);
      return ResourceErrors.of(req.id(), e);
    }
    ChannelWatch watch =
        watches.computeIfAbsent(
            channel,
            c -> {
              ChannelWatch w = new ChannelWatch(c);
              c.onClose(() -> w.close());
              return w;
            });
    watch.scopes.put(uri, scope);
    if (channel.closed()) {
      watch.close();
    }
    return Reply.result(req.id(), new JsonObject());
  }

  Reply unsubscribe(JsonRpc.Request req, Channel channel) {
    if (!(req.params().getValue("uri") instanceof String uri)) {
      return ResourcesMethods.invalid(req, "uri must be a string");
    }
    ChannelWatch watch = watches.get(channel);
    if (watch != null) {
      watch.scopes.remove(uri);
      if (watch.scopes.isEmpty()) {
        watch.close();
      }
    }
    return Reply.result(req.id(), new JsonObject());
  }

  /** A legacy channel's subscriptions: the URIs it named, one stream for all of them. */
  private final class ChannelWatch {
    final Channel channel;
    final Map<String, ResourceScope> scopes = new ConcurrentHashMap<>();
    final SubscriberStream stream;

    ChannelWatch(Channel channel) {
      this.channel = channel;
      Outbound out = channel.outbound();
      this.stream =
          new SubscriberStream(
              resources.changes(),
              change -> covered(scopes.values(), change),
              change -> readable(channel, change),
              false,
              out,
              (changes, list) -> {
                boolean listChanged = false;
                List<String> texts = new ArrayList<>(changes.size() + 1);
                for (ResourceChange c : changes) {
                  if (!readable(channel, c)) {
                    continue;
                  }
                  texts.add(ResourceNotifications.updatedText(c, null));
                  listChanged |= c.kind().changesList();
                }
                if (listChanged) {
                  texts.add(ResourceNotifications.listChangedText(null));
                }
                out.sendEncoded(texts);
              });
    }

    void close() {
      watches.remove(channel, this);
      stream.close();
    }
  }
}
