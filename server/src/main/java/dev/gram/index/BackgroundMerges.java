package dev.gram.index;

import dev.gram.async.Background;
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
 */
final class BackgroundMerges extends ConcurrentMergeScheduler {
  BackgroundMerges(Background background) {
    // Merges beyond the running ones are paused by Lucene, largest first.
    setMaxMergesAndThreads(background.threads() + 5, background.threads());
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
    super.doMerge(mergeSource, merge);
  }
}
