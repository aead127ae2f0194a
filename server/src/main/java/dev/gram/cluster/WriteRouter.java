package dev.gram.cluster;

import com.hazelcast.cluster.Member;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.store.CommitReceipt;
import dev.gram.store.Vault;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Where a write goes: to the owner of its document. A write whose owner is this node runs on
 * this node's write actor; any other is sent to the owner's address on the clustered event bus as
 * a {@link WriteCommand} ({@link Wire}), and the owner's receipt or refusal comes back. A node
 * that receives a write it no longer owns (the partition moved meanwhile) passes it on, a few
 * hops at most; while no node owns the document, or its owner does not answer (it left, and its
 * partitions are moving), the write waits on a timer and tries again, for a bounded time.
 */
final class WriteRouter {
  private static final String ADDRESS = "gram.cluster.write.";
  /** How long a routed write may take before its outcome is unknown to the node that sent it. */
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
  /** How long a write waits for a document to have an owner that answers (partitions moving). */
  private static final Duration OWNER_WAIT = Duration.ofSeconds(20);
  private static final long RETRY_MS = 100;
  private static final int MAX_HOPS = 4;

  private final Vertx vertx;
  private final ClusterView view;
  private final Vault vault;
  private final ClusterStats stats;
  /** Completes when writes may go (no takeover of a stopped node's log in progress). */
  private final Supplier<Future<Void>> ready;
  private MessageConsumer<JsonObject> consumer;
  private volatile boolean closed;

  WriteRouter(Vertx vertx, ClusterView view, Vault vault, ClusterStats stats, Supplier<Future<Void>> ready) {
    this.vertx = vertx;
    this.view = view;
    this.vault = vault;
    this.stats = stats;
    this.ready = ready;
  }

  /** Starts taking writes other nodes route here. */
  Future<Void> register() {
    consumer = vertx.eventBus().consumer(ADDRESS + view.localId(), this::onWrite);
    return consumer.completion();
  }

  Future<CommitReceipt> submit(WriteCommand command) {
    return ready.get().transform(ignored -> route(command, 0, System.nanoTime() + OWNER_WAIT.toNanos()));
  }

  private Future<CommitReceipt> route(WriteCommand c, int hops, long giveUpAt) {
    String path = c.path().path();
    Member owner = view.ownerOf(path);
    if (owner == null) {
      return later(c, hops, giveUpAt, "no node owns it yet");
    }
    if (owner.localMember() || hops >= MAX_HOPS) {
      return vault.submit(c); // its idempotency claims the request_id cluster-wide
    }
    stats.routedOut.increment();
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(WRITE_TIMEOUT.toMillis());
    JsonObject msg = Wire.command(c).put("hops", hops + 1);
    return vertx.eventBus().<JsonObject>request(ADDRESS + owner.getUuid(), msg, o)
        .map(reply -> Wire.receipt(reply.body()))
        .recover(e -> {
          if (e instanceof ReplyException r) {
            if (r.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
              return Future.failedFuture(Wire.failure(new JsonObject(r.getMessage()), path, vault));
            }
            if (r.failureType() == ReplyFailure.NO_HANDLERS) {
              // The owner is gone or not ready: its partitions will move.
              return later(c, hops, giveUpAt, "its owner does not answer");
            }
          }
          return Future.failedFuture(new GramException(ErrorCode.COMMIT_UNKNOWN,
              "Replacement published but durability is uncertain: the node that owns " + path
                  + " did not answer in time; retry with the same request_id to learn whether it landed"));
        });
  }

  private Future<CommitReceipt> later(WriteCommand c, int hops, long giveUpAt, String why) {
    if (closed || System.nanoTime() > giveUpAt) {
      return Future.failedFuture(new GramException(ErrorCode.E_STORAGE,
          "Storage commit failed: no node of the cluster could take the write to " + c.path().path() + " (" + why + ")"));
    }
    return vertx.timer(RETRY_MS).compose(t -> ready.get().transform(x -> route(c, hops, giveUpAt)));
  }

  private void onWrite(Message<JsonObject> m) {
    stats.routedIn.increment();
    WriteCommand c;
    try {
      c = Wire.command(m.body(), vault);
    } catch (RuntimeException e) {
      m.fail(500, Wire.failure(e).encode());
      return;
    }
    int hops = m.body().getInteger("hops", 1);
    route(c, hops, System.nanoTime() + OWNER_WAIT.toNanos()).onComplete(ar -> {
      if (ar.succeeded()) {
        m.reply(Wire.receipt(ar.result()));
      } else {
        m.fail(500, Wire.failure(ar.cause()).encode());
      }
    });
  }

  /** Stops taking routed writes; a write waiting for an owner gives up. */
  void close() {
    closed = true;
    if (consumer != null) {
      consumer.unregister();
    }
  }
}
