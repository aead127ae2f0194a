package dev.gram.protocol;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Answers {@code subscriptions/listen} (2026-07-28). Nothing this server lists changes while it
 * runs, so a subscription is acknowledged with an empty filter and then only held open: until the
 * client goes away (answered with nothing) or the server shuts down (answered with a graceful final
 * result). Pushing changes is for a later version; this class is where it will go.
 */
final class Subscriptions {
  private final ServerInfo info;
  private final Set<Subscription> open = ConcurrentHashMap.newKeySet();

  Subscriptions(ServerInfo info) {
    this.info = info;
  }

  /** @param stream where the acknowledgement (and, later, the subscription's messages) go */
  Future<Reply> listen(JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream) {
    Subscription sub = new Subscription(req.id(), channel);
    if (!channel.register(req.id(), sub)) {
      return Future.succeededFuture(
          Reply.error(
              req.id(),
              JsonRpc.INVALID_REQUEST,
              "Invalid Request: id already in flight",
              Reply.ErrorKind.INVALID_MESSAGE));
    }
    open.add(sub);
    stream.accept(
        JsonRpc.notification(
            "notifications/subscriptions/acknowledged",
            new JsonObject()
                .put("_meta", new JsonObject().put(MetaKeys.SUBSCRIPTION_ID, req.id()))
                .put("notifications", new JsonObject())));
    return sub.reply.future();
  }

  /** Ends every open subscription with its graceful final result (shutdown). */
  void endAll() {
    for (Subscription s : List.copyOf(open)) {
      s.end();
    }
  }

  private final class Subscription implements Channel.InFlight {
    final Object id;
    final Channel channel;
    final Promise<Reply> reply = Promise.promise();

    Subscription(Object id, Channel channel) {
      this.id = id;
      this.channel = channel;
    }

    @Override
    public void cancel(String reason) {
      open.remove(this);
      reply.tryComplete(Reply.CANCELLED);
    }

    void end() {
      open.remove(this);
      channel.unregister(id, this);
      JsonObject result =
          new JsonObject()
              .put("resultType", "complete")
              .put("_meta", info.resultMeta().put(MetaKeys.SUBSCRIPTION_ID, id));
      reply.tryComplete(Reply.result(id, result));
    }
  }
}
