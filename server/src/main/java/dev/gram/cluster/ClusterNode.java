package dev.gram.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Revision;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocumentWriter;
import dev.gram.store.Peers;
import dev.gram.store.RequestClaims;
import dev.gram.store.OrphanLog;
import dev.gram.store.RequestReuseException;
import dev.gram.store.Vault;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process as one node of a cluster serving one vault: where writes go and how the other
 * nodes hear of them.
 *
 * <p><b>Ownership.</b> Each document has one owner at a time: the member that owns the Hazelcast
 * partition of its path. {@link #submit} sends a write to the owner's address on the clustered
 * event bus ({@link WriteCommand}s are data, {@link Wire}); the owner's write actor runs it
 * exactly as on a single node and its receipt or refusal comes back. A node that receives a write
 * it no longer owns (the partition moved) passes it on.
 *
 * <p><b>Followers.</b> Every node holds every document. The owner hands each committed revision
 * to every other node ({@link #replicate}) and returns the receipt only once each has applied it
 * or failed to answer within {@link ClusterSettings#replicationTimeout()}, so a client holding a
 * receipt reads that revision or a later one from any node that answered. A node loading a
 * document asks its owner for revisions the shared file lacks ({@link #newerThan}).
 *
 * <p><b>Request ids.</b> One request_id, one intent, across the cluster: an owner claims each id
 * in a Hazelcast map before its actor commits ({@code putIfAbsent}), so two owners cannot commit
 * one id on two documents at once; the revision then carries the id to every node's own index.
 * Routing by request_id instead would have split one document's writes over several nodes.
 *
 * <p><b>Failover.</b> A node's write-ahead log lives in the shared vault under its name, locked
 * while it runs. When a member leaves, and at start, each node tries to claim the logs nobody
 * holds ({@link OrphanLog}); the one that does hands each document's revisions to its current
 * owner, which adds those it lacks and writes the file, and then deletes the log. Until its own
 * attempt is over, a node holds back the writes it routes.
 */
public final class ClusterNode implements DocumentWriter, Peers, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

  private static final String WRITE = "gram.cluster.write.";
  private static final String FOLLOW = "gram.cluster.follow.";
  private static final String SINCE = "gram.cluster.since.";
  private static final String ADOPT = "gram.cluster.adopt.";
  /** request_id → path of the write that claimed it. */
  static final String REQUEST_MAP = "gram.request-ids";
  /** path → {@code <rev>:<chain>} of the document's last commit, the fence of {@link HeadAdvance}. */
  static final String HEAD_MAP = "gram.heads";
  /** How long a claim in the request map lives: every node's own index knows the id well before. */
  private static final Duration REQUEST_CLAIM_TTL = Duration.ofHours(1);
  /** How long a routed write may take before its outcome is unknown to the node that sent it. */
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
  /** How long a write waits for a document to have an owner that answers (partitions moving). */
  private static final Duration OWNER_WAIT = Duration.ofSeconds(20);
  private static final int MAX_HOPS = 4;

  private final Vertx vertx;
  private final HazelcastInstance hz;
  private final Vault vault;
  private final ClusterSettings settings;
  private final IMap<String, String> requestClaims;
  private final IMap<String, String> heads;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  private final String localId;
  private final Promise<Void> startup = Promise.promise();
  private volatile Future<Void> takeover = startup.future();
  private volatile boolean closed;
  private java.util.UUID membershipListener;

  private final LongAdder routedOut = new LongAdder();
  private final LongAdder routedIn = new LongAdder();
  private final LongAdder replicated = new LongAdder();
  private final LongAdder followed = new LongAdder();
  private final LongAdder replicationMisses = new LongAdder();
  private final LongAdder logsTakenOver = new LongAdder();
  private final LongAdder revisionsTakenOver = new LongAdder();

  private ClusterNode(Vertx vertx, HazelcastInstance hz, Vault vault, ClusterSettings settings) {
    this.vertx = vertx;
    this.hz = hz;
    this.vault = vault;
    this.settings = settings;
    this.requestClaims = hz.getMap(REQUEST_MAP);
    this.heads = hz.getMap(HEAD_MAP);
    this.localId = hz.getCluster().getLocalMember().getUuid().toString();
  }

  /** This node over a vault that has opened its log and not yet started loading documents. */
  public static ClusterNode create(Vertx vertx, HazelcastInstance hz, Vault vault, ClusterSettings settings) {
    return new ClusterNode(vertx, hz, vault, settings);
  }

  /**
   * Registers this node's addresses and makes the vault replicate through it. Call before the
   * vault starts loading documents, so that no revision committed elsewhere during the load goes
   * unheard; then {@link #afterScan}.
   */
  public Future<Void> join() {
    return register().map(v -> {
      vault.joinCluster(this, requestClaims());
      membershipListener = hz.getCluster().addMembershipListener(new MembershipListener() {
        @Override
        public void memberAdded(MembershipEvent e) {
          LOG.info("cluster: {} joined ({} members)", e.getMember().getAddress(), e.getMembers().size());
        }

        @Override
        public void memberRemoved(MembershipEvent e) {
          LOG.warn("cluster: {} left ({} members); taking over its write-ahead log if nobody has",
              e.getMember().getAddress(), e.getMembers().size());
          takeOverOrphanLogs();
        }
      });
      return null;
    });
  }

  /**
   * Once the vault has loaded its documents: takes over the logs of nodes that are not running
   * (a whole cluster restarted with fewer nodes), and only then lets writes through.
   */
  public void afterScan(Future<Void> scanned) {
    scanned.onComplete(ar -> takeOverOrphanLogs().onComplete(startup));
  }

  private Future<Void> register() {
    EventBus bus = vertx.eventBus();
    consumers.add(bus.<JsonObject>consumer(WRITE + localId, this::onWrite));
    consumers.add(bus.<JsonObject>consumer(FOLLOW + localId, this::onFollow));
    consumers.add(bus.<JsonObject>consumer(SINCE + localId, this::onSince));
    consumers.add(bus.<JsonObject>consumer(ADOPT + localId, this::onAdopt));
    List<Future<Void>> done = new ArrayList<>();
    for (MessageConsumer<JsonObject> c : consumers) {
      done.add(c.completion());
    }
    return Future.all(done).mapEmpty();
  }

  // ------------------------------------------------------------------ facts for /healthz, /metrics

  public String node() {
    return settings.node();
  }

  public int members() {
    return hz.getCluster().getMembers().size();
  }

  /** Hazelcast partitions this node owns now: its share of the documents. */
  public int partitionsOwned() {
    int n = 0;
    for (var p : hz.getPartitionService().getPartitions()) {
      Member owner = p.getOwner();
      if (owner != null && owner.localMember()) {
        n++;
      }
    }
    return n;
  }

  /** Writes this node sent to another owner. */
  public long writesRoutedOut() {
    return routedOut.sum();
  }

  /** Writes another node sent here as the owner. */
  public long writesRoutedIn() {
    return routedIn.sum();
  }

  /** Revisions committed here and handed to the other nodes. */
  public long revisionsReplicated() {
    return replicated.sum();
  }

  /** Revisions committed by other nodes and applied here. */
  public long revisionsFollowed() {
    return followed.sum();
  }

  /** Times another node did not take a revision within the replication timeout. */
  public long replicationMisses() {
    return replicationMisses.sum();
  }

  /** Logs of stopped nodes this node took over, and the revisions they held. */
  public long logsTakenOver() {
    return logsTakenOver.sum();
  }

  /** True while this node is taking over logs of stopped nodes; the writes it routes wait. */
  public boolean takingOver() {
    return !takeover.isComplete();
  }

  public long revisionsTakenOver() {
    return revisionsTakenOver.sum();
  }

  public JsonObject health() {
    JsonObject j = new JsonObject()
        .put("node", settings.node())
        .put("members", members())
        .put("partitions_owned", partitionsOwned())
        .put("writes_routed_out", writesRoutedOut())
        .put("writes_routed_in", writesRoutedIn())
        .put("logs_taken_over", logsTakenOver())
        .put("taking_over", takingOver());
    JsonArray m = new JsonArray();
    for (Member member : hz.getCluster().getMembers()) {
      m.add(member.getAddress().getHost() + ":" + member.getAddress().getPort());
    }
    return j.put("member_addresses", m);
  }

  // ------------------------------------------------------------------ writes

  @Override
  public Future<CommitReceipt> submit(WriteCommand command) {
    return takeover.transform(ignored -> route(command, 0, System.nanoTime() + OWNER_WAIT.toNanos()));
  }

  private Member ownerOf(String path) {
    return hz.getPartitionService().getPartition(path).getOwner();
  }

  private Future<CommitReceipt> route(WriteCommand c, int hops, long giveUpAt) {
    String path = c.path().path();
    Member owner = ownerOf(path);
    if (owner == null) {
      return later(c, hops, giveUpAt, "no node owns it yet");
    }
    if (owner.localMember() || hops >= MAX_HOPS) {
      return commitHere(c);
    }
    routedOut.increment();
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(WRITE_TIMEOUT.toMillis());
    JsonObject msg = Wire.command(c).put("hops", hops + 1);
    return vertx.eventBus().<JsonObject>request(WRITE + owner.getUuid(), msg, o)
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
    Promise<CommitReceipt> p = Promise.promise();
    vertx.setTimer(100, t -> takeover.onComplete(x -> route(c, hops, giveUpAt).onComplete(p)));
    return p.future();
  }

  /** Runs a write on this node's actor (whose idempotency claims its request_id cluster-wide). */
  private Future<CommitReceipt> commitHere(WriteCommand c) {
    return vault.submit(c);
  }

  /**
   * request_id claims every node sees: the first write to claim an id holds it for an hour (every
   * node's own index knows a committed id well before); released when that write did not commit.
   */
  private RequestClaims requestClaims() {
    return new RequestClaims() {
      @Override
      public String claim(String requestId, String path) {
        return requestClaims.putIfAbsent(requestId, path, REQUEST_CLAIM_TTL.toMillis(), TimeUnit.MILLISECONDS);
      }

      @Override
      public void release(String requestId) {
        requestClaims.removeAsync(requestId);
      }
    };
  }

  private void onWrite(Message<JsonObject> m) {
    routedIn.increment();
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

  // ------------------------------------------------------------------ followers

  @Override
  public Future<Void> replicate(String path, Revision revision) {
    replicated.increment();
    JsonObject msg = new JsonObject().put("path", path).put("revision", Wire.revision(revision));
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(settings.replicationTimeout().toMillis());
    List<Future<Void>> acks = new ArrayList<>();
    for (Member m : hz.getCluster().getMembers()) {
      if (m.localMember()) {
        continue;
      }
      acks.add(vertx.eventBus().request(FOLLOW + m.getUuid(), msg, o).<Void>transform(ar -> {
        if (ar.failed() && !(ar.cause() instanceof ReplyException r && r.failureType() == ReplyFailure.NO_HANDLERS)) {
          // NO_HANDLERS: a node still starting (it asks for what it lacks as it loads) or gone.
          replicationMisses.increment();
          LOG.warn("cluster: {} did not take revision {} of {}: {}", m.getAddress(), revision.rev(), path,
              ar.cause().getMessage());
        }
        return Future.succeededFuture();
      }));
    }
    return acks.isEmpty() ? Future.succeededFuture() : Future.join(acks).mapEmpty();
  }

  private void onFollow(Message<JsonObject> m) {
    String path = m.body().getString("path");
    Revision r;
    try {
      r = Wire.revision(m.body().getString("revision"));
    } catch (RuntimeException e) {
      m.fail(500, Wire.failure(e).encode());
      return;
    }
    followed.increment();
    vault.follow(path, r).onComplete(ar -> {
      if (ar.succeeded()) {
        m.reply(new JsonObject());
      } else {
        LOG.warn("cluster: revision {} of {} from another node: {}", r.rev(), path, ar.cause().toString());
        m.fail(500, Wire.failure(ar.cause()).encode());
      }
    });
  }

  /**
   * Asks every other node, not only the owner: a node that has just joined may already own the
   * document's partition while the others hold its latest revisions. The longest answer wins
   * (they are all prefixes of one chain; the caller skips what it holds and sets aside what does
   * not chain).
   */
  @Override
  public List<Revision> newerThan(String path, int rev) {
    JsonObject msg = new JsonObject().put("path", path).put("rev", rev);
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(settings.replicationTimeout().toMillis());
    List<CompletableFuture<Message<JsonObject>>> answers = new ArrayList<>();
    for (Member m : hz.getCluster().getMembers()) {
      if (!m.localMember()) {
        answers.add(vertx.eventBus().<JsonObject>request(SINCE + m.getUuid(), msg, o).toCompletionStage().toCompletableFuture());
      }
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
    try {
      return heads.executeOnKey(path,
          new HeadAdvance(from.rev(), from.chain(), HeadAdvance.head(to.rev(), to.chain())));
    } catch (RuntimeException e) {
      // The map cannot answer (the cluster is shutting down): the commit cannot be fenced.
      throw new GramException(ErrorCode.E_STORAGE, "Storage commit failed: the cluster could not confirm the"
          + " document's head (" + e.getMessage() + ")");
    }
  }

  private void onSince(Message<JsonObject> m) {
    try {
      m.reply(new JsonObject().put("revisions",
          Wire.revisions(vault.revisionsAfter(m.body().getString("path"), m.body().getInteger("rev", -1)))));
    } catch (RuntimeException e) {
      m.fail(500, Wire.failure(e).encode());
    }
  }

  // ------------------------------------------------------------------ failover

  /**
   * Claims the logs of nodes that are not running and hands their revisions to their documents'
   * owners; writes this node routes wait until its attempt is over.
   */
  private synchronized Future<Void> takeOverOrphanLogs() {
    // After the start-up attempt's own scan, whatever its outcome.
    Future<Void> previous = takeover == startup.future() && !startup.future().isComplete()
        ? Future.succeededFuture()
        : takeover;
    Promise<Void> done = Promise.promise();
    takeover = done.future();
    previous.onComplete(x -> {
      Thread t = new Thread(() -> {
        try {
          takeOverNow();
        } catch (RuntimeException | IOException e) {
          LOG.error("cluster: taking over stopped nodes' logs failed; will try again when membership changes", e);
        } finally {
          done.complete();
        }
      }, "gram-cluster-takeover");
      t.setDaemon(true);
      t.start();
    });
    return done.future();
  }

  /**
   * Claims every log nobody holds, all at once: a document's revisions may be spread over several
   * of them (its owner changed as nodes came and went), and only together do they chain onto its
   * file. Each document's revisions are handed to its owner in order; the logs are deleted once
   * every owner has written them.
   */
  private void takeOverNow() throws IOException {
    waitForSafeCluster();
    Path root = vault.paths().vaultRoot();
    List<OrphanLog> claimed = new ArrayList<>();
    try {
      for (Path dir : OrphanLog.nodeLogs(root, settings.node())) {
        OrphanLog orphan = OrphanLog.claim(dir);
        if (orphan == null) {
          continue; // its node runs
        }
        if (orphan.revisionsByDocument().isEmpty() && orphan.damaged().isEmpty()) {
          orphan.retire(); // a node that stopped cleanly (or another survivor was first): nothing to hand on
          continue;
        }
        claimed.add(orphan);
      }
      if (claimed.isEmpty()) {
        return;
      }
      Map<String, List<Revision>> byDocument = merge(claimed);
      boolean handed = true;
      int revisions = 0;
      for (Map.Entry<String, List<Revision>> e : byDocument.entrySet()) {
        if (closed || !adopt(e.getKey(), e.getValue())) {
          handed = false;
        }
        revisions += e.getValue().size();
      }
      List<String> names = new ArrayList<>();
      for (OrphanLog o : claimed) {
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
        return;
      }
      for (OrphanLog o : claimed) {
        o.retire();
        logsTakenOver.increment();
      }
      claimed.clear();
      revisionsTakenOver.add(revisions);
      LOG.info("cluster: took over the write-ahead logs of stopped nodes {} ({} revisions of {} documents)", names,
          revisions, byDocument.size());
    } finally {
      for (OrphanLog o : claimed) {
        o.close();
      }
    }
  }

  /**
   * One list per document, in revision order, from several logs. Two logs may hold different
   * revisions with one number: one was acknowledged, the other logged by a node that then lost
   * the race for the head and died before cancelling it. The one the next revision chains onto
   * is kept first; what does not chain is set aside by the owner, never dropped.
   */
  static Map<String, List<Revision>> merge(List<OrphanLog> logs) {
    Map<String, java.util.TreeMap<Integer, List<Revision>>> byRev = new java.util.TreeMap<>();
    for (OrphanLog o : logs) {
      o.revisionsByDocument().forEach((path, revs) -> {
        var m = byRev.computeIfAbsent(path, k -> new java.util.TreeMap<>());
        for (Revision r : revs) {
          List<Revision> at = m.computeIfAbsent(r.rev(), k -> new ArrayList<>());
          if (at.stream().noneMatch(x -> x.chain().equals(r.chain()))) {
            at.add(r);
          }
        }
      });
    }
    Map<String, List<Revision>> out = new java.util.LinkedHashMap<>();
    byRev.forEach((path, m) -> {
      List<Revision> list = new ArrayList<>();
      m.forEach((rev, variants) -> {
        List<Revision> next = m.getOrDefault(rev + 1, List.of());
        List<Revision> ordered = new ArrayList<>(variants);
        ordered.sort(java.util.Comparator.comparing(
            v -> next.stream().anyMatch(n -> dev.gram.format.HistoryCodec.chain(v.chain(), n).equals(n.chain())) ? 0 : 1));
        list.addAll(ordered);
      });
      out.put(path, list);
    });
    return out;
  }

  /** Hands one document's revisions from a dead node's log to its owner; true once written. */
  private boolean adopt(String path, List<Revision> revisions) {
    for (int attempt = 0; attempt < 5 && !closed; attempt++) {
      Member owner = ownerOf(path);
      try {
        if (owner == null) {
          Thread.sleep(200);
          continue;
        }
        if (owner.localMember()) {
          vault.adopt(path, revisions).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } else {
          JsonObject msg = new JsonObject().put("path", path).put("revisions", Wire.revisions(revisions));
          vertx.eventBus().request(ADOPT + owner.getUuid(), msg, new DeliveryOptions().setSendTimeout(60_000))
              .toCompletionStage().toCompletableFuture().get(61, TimeUnit.SECONDS);
        }
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (Exception e) {
        LOG.warn("cluster: handing {} revisions of {} to its owner failed: {}", revisions.size(), path, e.toString());
        try {
          Thread.sleep(500);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return false;
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

  /** Waits (bounded) until Hazelcast has finished moving partitions after a membership change. */
  private void waitForSafeCluster() {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!closed && System.nanoTime() < until) {
      try {
        if (hz.getPartitionService().isClusterSafe()) {
          return;
        }
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        return; // the instance is shutting down
      }
    }
  }

  /** Stops taking writes and hearing revisions; the vault closes after. */
  @Override
  public void close() {
    closed = true;
    vault.leaveCluster();
    try {
      if (membershipListener != null) {
        hz.getCluster().removeMembershipListener(membershipListener);
      }
    } catch (RuntimeException e) {
      LOG.debug("cluster: {}", e.toString());
    }
    for (MessageConsumer<JsonObject> c : consumers) {
      c.unregister();
    }
  }
}
