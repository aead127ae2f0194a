package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Merges the index's small segments into one once the index has been quiet for a while.
 *
 * <p>Why: a search pays for every segment. Each word of a keyword recall is looked up in every
 * segment's term dictionary (a question of ten words is over a hundred lookups per segment), and a
 * semantic recall walks every segment's vector graph. Lucene's tiered policy keeps about ten
 * segments per size tier, which is right while writes arrive (it bounds how often a byte is
 * rewritten) and costly at rest: on 3,435 units, 12 segments answered a keyword question in
 * 1.63 ms and a nearest-vector query in 0.61 ms, one segment in 0.81 and 0.25 ms.
 *
 * <p>So, when no change reached the writer during a whole {@link LiveIndex} commit period (5 s),
 * the segments under {@link #SMALL_BYTES} are merged into one; the large ones, which the tiered
 * policy made at a cost, are left alone, so a large vault never rewrites its whole index because it
 * paused. The merge runs as every merge does (on {@link BackgroundMerges}' few low-priority
 * threads); a recall never waits for it, and a write that comes meanwhile simply makes a new
 * segment. Runs on the index's commit thread.
 */
final class IdleCompaction {
  /** Segments above this size are the tiered policy's to merge; below it they are merged at rest. */
  static final long SMALL_BYTES = 32L * 1024 * 1024;

  private final IndexWriter writer;
  private long lastSeen = -1;
  private long compactedAt = -1;

  IdleCompaction(IndexWriter writer) {
    this.writer = writer;
  }

  /** The writer's merge policy: the tiered one, and the merge of small segments when asked for. */
  static MergePolicy policy() {
    return new SmallSegmentsMerge(new TieredMergePolicy(), SMALL_BYTES);
  }

  /** Called once per commit period: compacts when nothing changed since the last call. */
  void tick() throws IOException {
    long seq = writer.getMaxCompletedSequenceNumber();
    if (seq != lastSeen) {
      lastSeen = seq;
      return;
    }
    if (seq == compactedAt || writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty()) {
      return;
    }
    // Does not wait: the merge scheduler runs it; the policy below picks what it merges.
    writer.forceMerge(1, false);
    // Asking flushes, which counts as a change: without this, an idle index would ask again
    // every other period (and its commit would sync the disk for nothing).
    compactedAt = writer.getMaxCompletedSequenceNumber();
    lastSeen = compactedAt;
  }

  /**
   * The tiered policy, except that a forced merge (asked for only by {@link #tick}) merges every
   * segment under {@code smallBytes} that is not already merging into one, and nothing else.
   */
  static final class SmallSegmentsMerge extends FilterMergePolicy {
    private final long smallBytes;

    SmallSegmentsMerge(MergePolicy in, long smallBytes) {
      super(in);
      this.smallBytes = smallBytes;
    }

    @Override
    public MergeSpecification findForcedMerges(
        SegmentInfos infos, int maxSegmentCount, Map<SegmentCommitInfo, Boolean> segmentsToMerge, MergeContext context)
        throws IOException {
      Set<SegmentCommitInfo> merging = context.getMergingSegments();
      List<SegmentCommitInfo> small = new ArrayList<>();
      for (SegmentCommitInfo info : infos) {
        if (segmentsToMerge.containsKey(info) && !merging.contains(info) && info.sizeInBytes() < smallBytes) {
          small.add(info);
        }
      }
      if (small.size() < 2) {
        return null;
      }
      MergeSpecification spec = new MergeSpecification();
      spec.add(new OneMerge(small));
      return spec;
    }
  }
}
