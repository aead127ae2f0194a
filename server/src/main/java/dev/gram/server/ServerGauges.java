package dev.gram.server;

import dev.gram.cluster.ClusterNode;
import dev.gram.index.IndexStatus;
import dev.gram.transport.ServerMetrics;

/** The gauges {@code /metrics} shows of the index, the store and the cluster: named once, here. */
final class ServerGauges {
  private ServerGauges() {}

  static void register(ServerMetrics metrics, Services services) {
    IndexStatus index = services.context().index();
    String help = "Documents of the search index by state (pending: waiting to be indexed)";
    metrics.gauge("gram.index.documents", help, () -> index.stats().indexedFiles(), "state", "indexed");
    metrics.gauge("gram.index.documents", help, () -> index.stats().pendingFiles(), "state", "pending");
    metrics.gauge("gram.index.documents", help, () -> index.stats().failedFiles(), "state", "failed");
    metrics.gauge("gram.index.embedded.chunks", "Chunks with an embedding vector",
        () -> index.stats().embeddedChunks());
    metrics.gauge("gram.semantic.available", "1 when semantic search works now, else 0",
        () -> index.semantic().available() ? 1 : 0);
    metrics.gauge("gram.index.unembedded.chunks", "Chunks still waiting for their embedding vector",
        index::unembeddedChunks);
    dev.gram.store.StoreMetrics store = services.vault().metrics();
    metrics.gauge("gram.store.write.cpu.seconds", "CPU time the document write actors spent on writes",
        store::writeCpuSeconds);
    metrics.gauge("gram.store.writes", "Writes the document write actors handled", store::writesHandled);
    metrics.gauge("gram.store.log.records", "Revisions appended to the write-ahead log since start",
        store::logRecords);
    metrics.gauge("gram.store.checkpoints.owed", "Documents with revisions only in the write-ahead log",
        store::checkpointsOwed);
    metrics.gauge("gram.index.lag.commits", "Acknowledged commits not yet searchable",
        () -> index.lag().commits());
    metrics.gauge("gram.index.lag.seconds", "How long the oldest commit not yet searchable has waited",
        () -> index.lag().oldestMillis() / 1000.0);
    ClusterNode node = services.cluster();
    if (node != null) {
      dev.gram.cluster.ClusterStats c = node.stats();
      metrics.gauge("gram.cluster.members", "Members of the cluster this node sees", node::members);
      metrics.gauge("gram.cluster.partitions.owned", "Hazelcast partitions (shares of the documents) this node owns",
          node::partitionsOwned);
      metrics.gauge("gram.cluster.writes.routed", "Writes sent to another node's write actor", c::writesRoutedOut,
          "direction", "out");
      metrics.gauge("gram.cluster.writes.routed", "Writes sent to another node's write actor", c::writesRoutedIn,
          "direction", "in");
      metrics.gauge("gram.cluster.revisions.replicated", "Revisions committed here and handed to the other nodes",
          c::revisionsReplicated);
      metrics.gauge("gram.cluster.revisions.followed", "Revisions committed elsewhere and applied here",
          c::revisionsFollowed);
      metrics.gauge("gram.cluster.replication.misses", "Times a node did not take a revision in time",
          c::replicationMisses);
      metrics.gauge("gram.cluster.logs.taken.over", "Write-ahead logs of stopped nodes replayed here",
          c::logsTakenOver);
      metrics.gauge("gram.cluster.revisions.taken.over", "Revisions those logs held", c::revisionsTakenOver);
      String step = "The median of the last 1,024 durations of one of the cluster's steps of a commit";
      metrics.gauge("gram.cluster.step.p50.seconds", step, () -> c.claimTimes().p50Seconds(), "step", "claim");
      metrics.gauge("gram.cluster.step.p50.seconds", step, () -> c.fenceTimes().p50Seconds(), "step", "fence");
      metrics.gauge("gram.cluster.step.p50.seconds", step, () -> c.replicateTimes().p50Seconds(),
          "step", "replicate");
    }
  }
}
