package dev.gram.cluster;

import com.hazelcast.cluster.Member;
import dev.gram.format.Revision;
import dev.gram.store.Peers;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The other nodes as this node's store sees them ({@link Peers}): every committed revision is
 * handed to each of them before its receipt ({@link #replicate}); a node loading a document asks
 * them for revisions its file lacks ({@link #newerThan}); the head fence is {@link HeadFence}'s.
 * It also answers the other nodes' side of both: a revision to follow, and what it holds after a
 * revision.
 */
final class ClusterPeers implements Peers {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPeers.class);
  /** Batches of revisions to follow ({@link ReplicationOutbox}); one revision a message was "gram.cluster.follow.". */
  private static final String FOLLOW = "gram.cluster.follow-batch.";
  private static final String SINCE = "gram.cluster.since.";

  private final Vertx vertx;
  private final ClusterView view;
  private final Vault vault;
  private final ClusterSettings settings;
  private final ClusterStats stats;
  private final HeadFence fence;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  private final Map<String, ReplicationOutbox> outboxes = new ConcurrentHashMap<>();

  ClusterPeers(Vertx vertx, ClusterView view, Vault vault, ClusterSettings settings, ClusterStats stats, HeadFence fence) {
    this.vertx = vertx;
    this.view = view;
    this.vault = vault;
    this.settings = settings;
    this.stats = stats;
    this.fence = fence;
  }

  /** Starts answering the other nodes: revisions to follow, and what this node holds. */
  Future<Void> register() {
    String id = view.localId();
    consumers.add(vertx.eventBus().consumer(FOLLOW + id, this::onFollow));
    consumers.add(vertx.eventBus().consumer(SINCE + id, this::onSince));
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
  }

  // ------------------------------------------------------------------ the owner's side

  @Override
  public Future<Boolean> replicate(String path, Revision revision) {
    stats.replicated.increment();
    long t0 = System.nanoTime();
    String text = Wire.revision(revision);
    List<Future<Boolean>> acks = new ArrayList<>();
    for (Member m : view.others()) {
      acks.add(outbox(m.getUuid().toString()).send(path, text).transform(ar -> {
        if (ar.failed() && !(ar.cause() instanceof ReplyException r && r.failureType() == ReplyFailure.NO_HANDLERS)) {
          // NO_HANDLERS: a node still starting (it asks for what it lacks as it loads) or gone.
          miss(m, revision, path, ar.cause().getMessage());
        } else if (ar.succeeded() && ar.result().containsKey("message")) {
          miss(m, revision, path, ar.result().getString("message"));
        }
        return Future.succeededFuture(ar.succeeded() && !ar.result().containsKey("message"));
      }));
    }
    if (acks.isEmpty()) {
      return Future.succeededFuture(true);
    }
    return Future.join(acks).map(v -> acks.stream().allMatch(Future::result))
        .onComplete(ar -> stats.replicate.since(t0));
  }

  private void miss(Member m, Revision revision, String path, String why) {
    stats.replicationMisses.increment();
    LOG.warn("cluster: {} did not take revision {} of {}: {}", m.getAddress(), revision.rev(), path, why);
  }

  /** The batches on their way to the node {@code id}; a node that left keeps none. */
  private ReplicationOutbox outbox(String id) {
    ReplicationOutbox o = outboxes.get(id);
    if (o != null) {
      return o;
    }
    if (outboxes.size() > view.members()) {
      Set<String> live = new HashSet<>();
      view.others().forEach(m -> live.add(m.getUuid().toString()));
      outboxes.keySet().retainAll(live);
    }
    DeliveryOptions opts = new DeliveryOptions().setSendTimeout(settings.replicationTimeout().toMillis());
    return outboxes.computeIfAbsent(id, k -> new ReplicationOutbox(vertx, FOLLOW + k, opts));
  }

  /**
   * Asks every other node, not only the owner: a node that has just joined may already own the
   * document's partition while the others hold its latest revisions. The longest answer wins
   * (they are all prefixes of one chain; the caller skips what it holds and sets aside what does
   * not chain). Blocks the calling actor thread for at most the replication timeout.
   */
  @Override
  public List<Revision> newerThan(String path, int rev) {
    JsonObject msg = new JsonObject().put("path", path).put("rev", rev);
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(settings.replicationTimeout().toMillis());
    List<CompletableFuture<Message<JsonObject>>> answers = new ArrayList<>();
    for (Member m : view.others()) {
      answers.add(vertx.eventBus().<JsonObject>request(SINCE + m.getUuid(), msg, o).toCompletionStage().toCompletableFuture());
    }
    List<Revision> best = List.of();
    for (CompletableFuture<Message<JsonObject>> a : answers) {
      try {
        Message<JsonObject> reply = a.get(settings.replicationTimeout().toMillis() + 500, TimeUnit.MILLISECONDS);
        List<Revision> got = Wire.revisions(reply.body().getJsonArray("revisions", new JsonArray()));
        if (got.size() > best.size()) {
          best = got;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return best;
      } catch (Exception e) {
        LOG.debug("cluster: a node could not say what is newer than revision {} of {}: {}", rev, path, e.toString());
      }
    }
    return best;
  }

  @Override
  public boolean advance(String path, Revision from, Revision to) {
    return fence.advance(path, from, to);
  }

  // ------------------------------------------------------------------ the followers' side

  /**
   * A batch of revisions from their owner ({@link ReplicationOutbox}), applied in order (one
   * document's revisions reach its actor in the order they were committed); the answer comes once
   * every one is applied or refused, and names the refused ones by position.
   */
  private void onFollow(Message<JsonObject> m) {
    JsonArray items = m.body().getJsonArray("revisions", new JsonArray());
    List<Future<Void>> applied = new ArrayList<>(items.size() / 2);
    for (int k = 0; k + 1 < items.size(); k += 2) {
      String path = items.getString(k);
      Revision r;
      try {
        r = Wire.revision(items.getString(k + 1));
      } catch (RuntimeException e) {
        applied.add(Future.failedFuture(e));
        continue;
      }
      stats.followed.increment();
      applied.add(vault.follow(path, r).onFailure(e ->
          LOG.warn("cluster: revision {} of {} from another node: {}", r.rev(), path, e.toString())));
    }
    Future.join(applied).onComplete(ar -> {
      JsonObject refused = new JsonObject();
      for (int i = 0; i < applied.size(); i++) {
        if (applied.get(i).failed()) {
          refused.put(Integer.toString(i), Wire.failure(applied.get(i).cause()));
        }
      }
      m.reply(refused.isEmpty() ? new JsonObject() : new JsonObject().put("refused", refused));
    });
  }

  private void onSince(Message<JsonObject> m) {
    try {
      m.reply(new JsonObject().put("revisions",
          Wire.revisions(vault.revisionsAfter(m.body().getString("path"), m.body().getInteger("rev", -1)))));
    } catch (RuntimeException e) {
      m.fail(500, Wire.failure(e).encode());
    }
  }

  /** Stops hearing other nodes' revisions. */
  void close() {
    for (MessageConsumer<JsonObject> c : consumers) {
      c.unregister();
    }
  }
}
