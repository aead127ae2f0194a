package dev.gram.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Revision;

/**
 * Each document's head as the whole cluster knows it, in a Hazelcast map (path → {@code
 * <rev>:<chain>}), moved by {@link HeadAdvance} after a revision is durable in its owner's log and
 * before anyone hears of it. Ownership moves when members join or leave, and for a moment two
 * nodes may both act as a document's owner: the one whose advance is refused cancels its record.
 * The map's key is the path, so the entry lives on the partition that decides who owns the
 * document: once partitions are settled the call is local to the owner, plus the synchronous
 * backup to one other member.
 */
final class HeadFence {
  static final String MAP = "gram.heads";

  private final IMap<String, String> heads;
  private final StepTimes times;

  HeadFence(HazelcastInstance hz, StepTimes times) {
    this.heads = hz.getMap(MAP);
    this.times = times;
  }

  /** Moves the head from {@code from} to {@code to}; false when another node moved it first. */
  boolean advance(String path, Revision from, Revision to) {
    long t0 = System.nanoTime();
    try {
      return heads.executeOnKey(path,
          new HeadAdvance(from.rev(), from.chain(), HeadAdvance.head(to.rev(), to.chain())));
    } catch (RuntimeException e) {
      // The map cannot answer (the cluster is shutting down): the commit cannot be fenced.
      throw new GramException(ErrorCode.E_STORAGE, "Storage commit failed: the cluster could not confirm the"
          + " document's head (" + e.getMessage() + ")");
    } finally {
      times.since(t0);
    }
  }
}
