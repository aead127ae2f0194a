package dev.gram.cluster;

import com.hazelcast.cluster.Member;
import dev.gram.format.Revision;
import dev.gram.store.OrphanLog;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over the write-ahead logs of nodes that are not running: at start, once the vault has
 * loaded, and whenever a member leaves. An attempt waits (on a timer) until Hazelcast has
 * settled the partitions, claims every log nobody holds ({@link OrphanLog}, on Vert.x's worker
 * pool, since it reads files), merges their revisions per document ({@link OrphanRevisions}),
 * hands each document's revisions to its current owner (this node's vault, or the owner's address
 * on the event bus), which adds those it lacks and writes the file, and only then deletes the
 * logs. A log that could not be handed over whole stays for the next attempt.
 *
 * <p>Attempts run one after another; writes this node routes wait for the current one ({@link
 * #ready}). No thread of its own and no sleep: waits are Vert.x timers, file work runs on
 * Vert.x's workers.
 */
final class LogTakeover {
  private static final Logger LOG = LoggerFactory.getLogger(LogTakeover.class);
  private static final String ADOPT = "gram.cluster.adopt.";
  /** How long an attempt waits for Hazelcast to finish moving partitions, and how often it looks. */
  private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);
  private static final long SETTLE_POLL_MS = 100;
  /** Tries to hand one document's revisions to its owner, and the pauses between them. */
  private static final int ADOPT_ATTEMPTS = 5;
  private static final long NO_OWNER_RETRY_MS = 200;
  private static final long FAILED_RETRY_MS = 500;
  /** How long an owner may take to add a document's revisions and write its file. */
  private static final Duration ADOPT_TIMEOUT = Duration.ofSeconds(60);

  /** The logs one attempt claimed, and their revisions per document. */
  private record Claimed(List<OrphanLog> logs, Map<String, List<Revision>> byDocument) {}

  private final Vertx vertx;
  private final ClusterView view;
  private final Vault vault;
  private final String ownNode;
  private final ClusterStats stats;
  /** The attempt at start, which writes wait for before anything else. */
  private final Promise<Void> firstAttempt = Promise.promise();
  private volatile Future<Void> current = firstAttempt.future();
  private MessageConsumer<JsonObject> consumer;
  private volatile boolean closed;

  LogTakeover(Vertx vertx, ClusterView view, Vault vault, String ownNode, ClusterStats stats) {
    this.vertx = vertx;
    this.view = view;
    this.vault = vault;
    this.ownNode = ownNode;
    this.stats = stats;
  }

  /** Starts taking the revisions of a document this node owns from another node's takeover. */
  Future<Void> register() {
    consumer = vertx.eventBus().consumer(ADOPT + view.localId(), this::onAdopt);
    return consumer.completion();
  }

  /** Completes when no attempt is running: writes routed by this node wait for it. */
  Future<Void> ready() {
    return current;
  }

  boolean running() {
    return !current.isComplete();
  }

  /** The attempt at start, once the vault has loaded its documents (whatever the scan's outcome). */
  void afterScan(Future<Void> scanned) {
    scanned.onComplete(ar -> attempt().onComplete(firstAttempt));
  }

  /** Starts an attempt after the one running, if any; a member left. */
  synchronized Future<Void> attempt() {
    // An attempt before the start-up one (a member left while this node was loading) does not
    // wait for it: the start-up attempt comes after.
    Future<Void> previous = current == firstAttempt.future() && !firstAttempt.future().isComplete()
        ? Future.succeededFuture()
        : current;
    Promise<Void> done = Promise.promise();
    current = done.future();
    previous.onComplete(x -> takeOver().onComplete(ar -> {
      if (ar.failed()) {
        LOG.error("cluster: taking over stopped nodes' logs failed; will try again when membership changes", ar.cause());
      }
      done.complete();
    }));
    return done.future();
  }

  private Future<Void> takeOver() {
    return settled(System.nanoTime() + SETTLE_WAIT.toNanos())
        .compose(v -> blocking(this::claimAll))
        .compose(this::handOver);
  }

  /** Completes once Hazelcast has settled the partitions, or the wait is over. */
  private Future<Void> settled(long until) {
    if (closed || view.settled() || System.nanoTime() >= until) {
      return Future.succeededFuture();
    }
    return vertx.timer(SETTLE_POLL_MS).compose(t -> settled(until));
  }

  /**
   * Claims every log nobody holds, all at once: a document's revisions may be spread over several
   * of them. A log with nothing to hand on (its node stopped cleanly) is deleted at once.
   */
  private Claimed claimAll() throws IOException {
    Path root = vault.paths().vaultRoot();
    List<OrphanLog> claimed = new ArrayList<>();
    try {
      for (Path dir : OrphanLog.nodeLogs(root, ownNode)) {
        OrphanLog orphan = OrphanLog.claim(dir);
        if (orphan == null) {
          continue; // its node runs
        }
        if (orphan.revisionsByDocument().isEmpty() && orphan.damaged().isEmpty()) {
          orphan.retire(); // a node that stopped cleanly (or another survivor was first)
          continue;
        }
        claimed.add(orphan);
      }
      return new Claimed(claimed, OrphanRevisions.merge(claimed));
    } catch (IOException | RuntimeException e) {
      claimed.forEach(OrphanLog::close);
      throw e;
    }
  }

  private Future<Void> handOver(Claimed c) {
    if (c.logs().isEmpty()) {
      return Future.succeededFuture();
    }
    List<OrphanLog> held = new ArrayList<>(c.logs());
    return adoptAll(c.byDocument().entrySet().iterator())
        .compose(handed -> blocking(() -> finish(held, c.byDocument(), handed)))
        .eventually(() -> blocking(() -> {
          held.forEach(OrphanLog::close); // what was not retired stays, whole, for the next attempt
          return null;
        }));
  }

  /** Deletes the logs once every document's owner took their revisions; else keeps them. */
  private Void finish(List<OrphanLog> held, Map<String, List<Revision>> byDocument, boolean handed) throws IOException {
    List<String> names = new ArrayList<>();
    int revisions = byDocument.values().stream().mapToInt(List::size).sum();
    for (OrphanLog o : held) {
      names.add(o.dir().getFileName().toString());
      if (!o.damaged().isEmpty()) {
        handed = false;
        LOG.error("cluster: the write-ahead log of stopped node {} is damaged and kept for repair: {}",
            o.dir().getFileName(), o.damaged());
      }
    }
    if (!handed) {
      LOG.error("cluster: the write-ahead logs of stopped nodes {} are kept: not every document's owner took"
          + " their revisions; trying again at the next membership change", names);
      return null;
    }
    for (Iterator<OrphanLog> it = held.iterator(); it.hasNext(); ) {
      it.next().retire();
      it.remove();
      stats.logsTakenOver.increment();
    }
    stats.revisionsTakenOver.add(revisions);
    LOG.info("cluster: took over the write-ahead logs of stopped nodes {} ({} revisions of {} documents)", names,
        revisions, byDocument.size());
    return null;
  }

  /** Hands every document's revisions to its owner, one document after another; true if all were taken. */
  private Future<Boolean> adoptAll(Iterator<Map.Entry<String, List<Revision>>> documents) {
    if (!documents.hasNext()) {
      return Future.succeededFuture(true);
    }
    if (closed) {
      return Future.succeededFuture(false);
    }
    Map.Entry<String, List<Revision>> d = documents.next();
    return adopt(d.getKey(), d.getValue(), 0).compose(ok -> adoptAll(documents).map(rest -> ok && rest));
  }

  /** Hands one document's revisions to its owner; true once it wrote them to the file. */
  private Future<Boolean> adopt(String path, List<Revision> revisions, int attempt) {
    if (closed || attempt >= ADOPT_ATTEMPTS) {
      return Future.succeededFuture(false);
    }
    Member owner = view.ownerOf(path);
    if (owner == null) {
      return vertx.timer(NO_OWNER_RETRY_MS).compose(t -> adopt(path, revisions, attempt + 1));
    }
    Future<?> handed = owner.localMember()
        ? vault.adopt(path, revisions).timeout(ADOPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        : vertx.eventBus().request(ADOPT + owner.getUuid(),
            new JsonObject().put("path", path).put("revisions", Wire.revisions(revisions)),
            new DeliveryOptions().setSendTimeout(ADOPT_TIMEOUT.toMillis()));
    return handed.map(true).recover(e -> {
      LOG.warn("cluster: handing {} revisions of {} to its owner failed: {}", revisions.size(), path, e.toString());
      return vertx.timer(FAILED_RETRY_MS).compose(t -> adopt(path, revisions, attempt + 1));
    });
  }

  private void onAdopt(Message<JsonObject> m) {
    List<Revision> revisions;
    try {
      revisions = Wire.revisions(m.body().getJsonArray("revisions"));
    } catch (RuntimeException e) {
      m.fail(500, Wire.failure(e).encode());
      return;
    }
    vault.adopt(m.body().getString("path"), revisions).onComplete(ar -> {
      if (ar.succeeded()) {
        m.reply(new JsonObject());
      } else {
        m.fail(500, Wire.failure(ar.cause()).encode());
      }
    });
  }

  /** File work (claiming, reading and deleting logs) on Vert.x's worker pool, never an event loop. */
  private <T> Future<T> blocking(Callable<T> work) {
    return vertx.executeBlocking(work, false);
  }

  /** Stops: a running attempt hands nothing more over and keeps the logs it has not deleted. */
  void close() {
    closed = true;
    if (consumer != null) {
      consumer.unregister();
    }
  }
}
