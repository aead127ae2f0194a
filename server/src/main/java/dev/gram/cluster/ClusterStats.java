package dev.gram.cluster;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this node counts of the cluster's work, for {@code /healthz} and {@code /metrics}: writes
 * routed, revisions replicated and followed, logs taken over, and how long the cluster's own steps
 * of a commit take (the request-id claim, the head fence, replication to the other nodes).
 */
public final class ClusterStats {
  final LongAdder routedOut = new LongAdder();
  final LongAdder routedIn = new LongAdder();
  final LongAdder replicated = new LongAdder();
  final LongAdder followed = new LongAdder();
  final LongAdder replicationMisses = new LongAdder();
  final LongAdder logsTakenOver = new LongAdder();
  final LongAdder revisionsTakenOver = new LongAdder();

  /** The request-id claim in Hazelcast, as its owner's idempotency makes it. */
  final StepTimes claim = new StepTimes();
  /** The head fence: one entry-processor call on the document's head. */
  final StepTimes fence = new StepTimes();
  /** From handing a revision to the other nodes until each has taken it (or timed out). */
  final StepTimes replicate = new StepTimes();

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

  /** Logs of stopped nodes this node took over. */
  public long logsTakenOver() {
    return logsTakenOver.sum();
  }

  /** The revisions those logs held. */
  public long revisionsTakenOver() {
    return revisionsTakenOver.sum();
  }

  public StepTimes claimTimes() {
    return claim;
  }

  public StepTimes fenceTimes() {
    return fence;
  }

  public StepTimes replicateTimes() {
    return replicate;
  }

  /** The {@code cluster} object of {@code /healthz}. */
  JsonObject health(String node, ClusterView view, boolean takingOver) {
    return new JsonObject()
        .put("node", node)
        .put("members", view.members())
        .put("partitions_owned", view.partitionsOwned())
        .put("writes_routed_out", writesRoutedOut())
        .put("writes_routed_in", writesRoutedIn())
        .put("logs_taken_over", logsTakenOver())
        .put("taking_over", takingOver)
        .put("member_addresses", view.memberAddresses());
  }
}
