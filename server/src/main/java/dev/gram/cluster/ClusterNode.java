package dev.gram.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocumentWriter;
import dev.gram.store.Vault;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process as one node of a cluster serving one vault: what the server wires. It puts the
 * parts together and holds none of their work:
 *
 * <ul>
 *   <li>{@link WriteRouter}: the {@link DocumentWriter} the tools write through; each write goes
 *       to its document's owner ({@link ClusterView}).
 *   <li>{@link ClusterPeers}: the {@link dev.gram.store.Peers} the vault's committer replicates
 *       through, and the follower's side of replication and catch-up; {@link HeadFence} fences
 *       each document's head; {@link RequestIdClaims} are the request_id claims every node sees.
 *   <li>{@link LogTakeover}: the logs of stopped nodes, at start and whenever a member leaves.
 *   <li>{@link ClusterStats}: what it counts and times, for {@code /healthz} and {@code /metrics}.
 * </ul>
 */
public final class ClusterNode implements DocumentWriter, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

  private final HazelcastInstance hz;
  private final Vault vault;
  private final ClusterSettings settings;
  private final ClusterView view;
  private final ClusterStats stats = new ClusterStats();
  private final WriteRouter router;
  private final ClusterPeers peers;
  private final RequestIdClaims claims;
  private final LogTakeover takeover;
  private UUID membershipListener;

  private ClusterNode(Vertx vertx, HazelcastInstance hz, Vault vault, ClusterSettings settings) {
    this.hz = hz;
    this.vault = vault;
    this.settings = settings;
    this.view = new ClusterView(hz);
    this.takeover = new LogTakeover(vertx, view, vault, settings.node(), stats);
    this.router = new WriteRouter(vertx, view, vault, stats, takeover::ready);
    this.peers = new ClusterPeers(vertx, view, vault, settings, stats, new HeadFence(hz, stats.fence));
    this.claims = new RequestIdClaims(hz, stats.claim);
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
    return Future.all(router.register(), peers.register(), takeover.register()).map(v -> {
      vault.joinCluster(peers, claims);
      membershipListener = hz.getCluster().addMembershipListener(new MembershipListener() {
        @Override
        public void memberAdded(MembershipEvent e) {
          LOG.info("cluster: {} joined ({} members)", e.getMember().getAddress(), e.getMembers().size());
        }

        @Override
        public void memberRemoved(MembershipEvent e) {
          LOG.warn("cluster: {} left ({} members); taking over its write-ahead log if nobody has",
              e.getMember().getAddress(), e.getMembers().size());
          takeover.attempt();
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
    takeover.afterScan(scanned);
  }

  @Override
  public Future<CommitReceipt> submit(WriteCommand command) {
    return router.submit(command);
  }

  // ------------------------------------------------------------------ facts for /healthz, /metrics

  public String node() {
    return settings.node();
  }

  public int members() {
    return view.members();
  }

  /** Hazelcast partitions this node owns now: its share of the documents. */
  public int partitionsOwned() {
    return view.partitionsOwned();
  }

  /** True while this node is taking over logs of stopped nodes; the writes it routes wait. */
  public boolean takingOver() {
    return takeover.running();
  }

  public ClusterStats stats() {
    return stats;
  }

  public JsonObject health() {
    return stats.health(settings.node(), view, takingOver()).put("requestClaims", claims.ownedHere());
  }

  /** Stops taking writes and hearing revisions; the vault closes after. */
  @Override
  public void close() {
    router.close();
    takeover.close();
    vault.leaveCluster();
    try {
      if (membershipListener != null) {
        hz.getCluster().removeMembershipListener(membershipListener);
      }
    } catch (RuntimeException e) {
      LOG.debug("cluster: {}", e.toString());
    }
    peers.close();
  }
}
