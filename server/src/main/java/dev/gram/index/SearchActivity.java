package dev.gram.index;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recalls running now, and when the last one ended: what the embedder watches to give way to
 * agents that are searching (see {@link BackgroundEmbedder}).
 */
final class SearchActivity {
  private final AtomicInteger running = new AtomicInteger();
  /** Starts a minute in the past: nanoTime's origin is arbitrary, so 0 could be "just now". */
  private volatile long lastEnded = System.nanoTime() - TimeUnit.MINUTES.toNanos(1);

  void started() {
    running.incrementAndGet();
  }

  void ended() {
    lastEnded = System.nanoTime();
    running.decrementAndGet();
  }

  /** A recall is running, or one ended less than {@code quietNanos} ago. */
  boolean busy(long quietNanos) {
    return running.get() > 0 || System.nanoTime() - lastEnded < quietNanos;
  }
}
