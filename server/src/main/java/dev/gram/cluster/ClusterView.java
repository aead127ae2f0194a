package dev.gram.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;

/**
 * Who is in the cluster and who owns which document, as Hazelcast sees it now: the owner of a
 * document is the member that owns the partition of its path. Read only; Hazelcast decides.
 */
final class ClusterView {
  private final HazelcastInstance hz;

  ClusterView(HazelcastInstance hz) {
    this.hz = hz;
  }

  HazelcastInstance hazelcast() {
    return hz;
  }

  /** This member's id: the suffix of its addresses on the event bus. */
  String localId() {
    return hz.getCluster().getLocalMember().getUuid().toString();
  }

  /** The member that owns the document now, or null while its partition has no owner. */
  Member ownerOf(String path) {
    return hz.getPartitionService().getPartition(path).getOwner();
  }

  /** Every member but this one. */
  List<Member> others() {
    List<Member> out = new ArrayList<>();
    for (Member m : hz.getCluster().getMembers()) {
      if (!m.localMember()) {
        out.add(m);
      }
    }
    return out;
  }

  int members() {
    return hz.getCluster().getMembers().size();
  }

  /** Hazelcast partitions this node owns now: its share of the documents. */
  int partitionsOwned() {
    int n = 0;
    for (var p : hz.getPartitionService().getPartitions()) {
      Member owner = p.getOwner();
      if (owner != null && owner.localMember()) {
        n++;
      }
    }
    return n;
  }

  /** {@code host:port} of every member, this one included. */
  JsonArray memberAddresses() {
    JsonArray m = new JsonArray();
    for (Member member : hz.getCluster().getMembers()) {
      m.add(member.getAddress().getHost() + ":" + member.getAddress().getPort());
    }
    return m;
  }

  /**
   * True once Hazelcast has finished moving partitions after a membership change (every
   * partition has its owner and its backups); also true when the instance is shutting down, since
   * waiting longer would not help.
   */
  boolean settled() {
    try {
      return hz.getPartitionService().isClusterSafe();
    } catch (RuntimeException e) {
      return true;
    }
  }
}
