package dev.gram.cluster;

import java.time.Duration;
import java.util.List;

/**
 * How a node joins its cluster.
 *
 * @param host the address this node listens on for other nodes (Hazelcast and the event bus)
 * @param port Hazelcast's port on {@code host}; the event bus takes a free port beside it
 * @param members {@code host:port} of peers to find the cluster through (TCP/IP; no multicast)
 * @param node this node's name: its write-ahead log is {@code .gram-wal/nodes/<node>/} and its
 *     index its own folder; stable across restarts so that a node comes back to its own log
 * @param replicationTimeout how long a commit waits for each other node to take its revision
 *     before its receipt is returned anyway (a node that did not answer in time may serve an
 *     older state until it hears of a later commit)
 */
public record ClusterSettings(
    String host, int port, List<String> members, String node, Duration replicationTimeout) {
  public static final int DEFAULT_PORT = 5701;
  public static final Duration DEFAULT_REPLICATION_TIMEOUT = Duration.ofSeconds(3);

  public ClusterSettings {
    members = List.copyOf(members);
  }

  /** The default node name: where the node listens, which is unique within one cluster. */
  public static String defaultNode(String host, int port) {
    return (host + "-" + port).replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
