package dev.gram.index;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import java.io.IOException;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.MergePolicy;

/**
 * Lucene's merges as background work. Merging the segments the embedder fills rebuilds their
 * vector graphs, which on a large vault takes minutes of CPU; so merges run on at most the
 * background share's threads, at its CPU priority, and never hold up a thread that indexes or
 * refreshes. Lucene's own scheduler stalls such a thread while too many merges are running; here
 * a merge that finds no free slot waits instead, and the merge thread that finishes next starts
 * it (Lucene picks up pending merges whenever one ends). A recall waits for the live thread and
 * the refresh, never for a merge.
 *
 * <p>A merge also gives way to the agents, as the embedder does between two batches: it starts once
 * no tool call is in flight ({@link Foreground#busy}), or after {@link #YIELD_MAX_MS} if calls keep
 * coming. Right after an ingest the tiered policy has merges to do just as an agent starts asking;
 * run then, they and the JIT's compilation of their code took CPU from the first recalls. A
 * merge once started runs to its end; the bound keeps merges going under a steady stream of calls.
 */
final class BackgroundMerges extends ConcurrentMergeScheduler {
  /** The longest a merge waits for the agents to pause before it starts anyway. */
  static final long YIELD_MAX_MS = 1_000;

  private final Foreground foreground;
  private final long yieldMaxMs;

  BackgroundMerges(Background background) {
    this(background, YIELD_MAX_MS);
  }

  BackgroundMerges(Background background, long yieldMaxMs) {
    // Merges beyond the running ones are paused by Lucene, largest first.
    setMaxMergesAndThreads(background.threads() + 5, background.threads());
    this.foreground = background.foreground();
    this.yieldMaxMs = yieldMaxMs;
  }

  @Override
  protected synchronized boolean maybeStall(MergeSource mergeSource) {
    return mergeThreadCount() < getMaxMergeCount();
  }

  @Override
  protected void doMerge(MergeSource mergeSource, MergePolicy.OneMerge merge) throws IOException {
    // On the merge thread itself: it lowers itself once, and the threads it may start for one
    // merge's parts inherit that.
    Background.lowerCurrentThread();
    try {
      foreground.awaitQuiet(yieldMaxMs);
    } catch (InterruptedException e) {
      // Nothing here interrupts Lucene's merge threads; should something, the merge still runs
      // (the writer waits for every merge it registered) and Lucene sees the flag as it would have.
      Thread.currentThread().interrupt();
    }
    super.doMerge(mergeSource, merge);
  }
}
