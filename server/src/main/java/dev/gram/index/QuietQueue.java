package dev.gram.index;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Paths waiting for the embedder, each handed out only once it has been quiet: not queued again
 * for {@code quietMs}, or first queued {@code maxDelayMs} ago, whichever comes first. A document
 * patched a hundred times a second is then embedded about {@code 1000 / maxDelayMs} times a
 * second, each time at its latest state, instead of once per write; a vault loaded at start is
 * quiet at once. A path is worked on by one worker at a time: queued again while it is being
 * embedded, it waits until that worker is {@link #done}.
 */
final class QuietQueue {
  private final long quietNanos;
  private final long maxDelayNanos;
  /** Path → {first queued, last queued}, oldest first. Guarded by this. */
  private final LinkedHashMap<String, long[]> items = new LinkedHashMap<>();
  private final Set<String> claimed = new HashSet<>();
  private boolean closed;

  QuietQueue(long quietMs, long maxDelayMs) {
    this.quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMs);
    this.maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(maxDelayMs);
  }

  synchronized void add(String path) {
    long now = System.nanoTime();
    long[] t = items.get(path);
    if (t == null) {
      items.put(path, new long[] {now, now});
      notifyAll();
    } else {
      t[1] = now;
    }
  }

  /**
   * The oldest quiet path, claimed for the caller until {@link #done}; {@code null} when none
   * became quiet within {@code maxMs} or the queue was {@link #close closed}.
   */
  synchronized String take(long maxMs) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMs);
    while (!closed) {
      long now = System.nanoTime();
      long nextReady = Long.MAX_VALUE;
      for (Iterator<Map.Entry<String, long[]>> it = items.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, long[]> e = it.next();
        if (claimed.contains(e.getKey())) {
          continue;
        }
        long ready = Math.min(e.getValue()[1] + quietNanos, e.getValue()[0] + maxDelayNanos);
        if (ready <= now) {
          it.remove();
          claimed.add(e.getKey());
          return e.getKey();
        }
        nextReady = Math.min(nextReady, ready);
      }
      if (now >= end) {
        return null;
      }
      TimeUnit.NANOSECONDS.timedWait(this, Math.max(100_000, Math.min(end, nextReady) - now));
    }
    return null;
  }

  /** The worker that took {@code path} has finished with it. */
  synchronized void done(String path) {
    claimed.remove(path);
    notifyAll();
  }

  /** Paths waiting, the ones being worked on included. */
  synchronized int size() {
    return items.size() + claimed.size();
  }

  synchronized void clear() {
    items.clear();
  }

  /** Hands out nothing more; a worker blocked in {@link #take} returns at once. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }
}
