package dev.gram.async;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's own work that no client waits for (computing vectors, the index's rebuild and its
 * merges, the vault's start-up scan) and its bounded share of the machine: at most {@link
 * #threads()} threads (by default half the cores, at least one; {@code --background-threads}),
 * created here at the lowest CPU priority ({@link LowPriority}), and the {@link Foreground} they
 * yield to between batches. An agent's call then finds a core free, and a background batch that
 * is already running loses the CPU to it at once.
 */
public final class Background {
  private final int threads;
  private final Foreground foreground;

  /**
   * @param threads how many threads background work may keep busy at once
   * @param foreground the agents' calls it gives way to
   */
  public Background(int threads, Foreground foreground) {
    if (threads < 1) {
      throw new IllegalArgumentException("background work needs at least one thread");
    }
    this.threads = threads;
    this.foreground = foreground;
  }

  /** Half the cores, at least one: the other half stays with the agents. */
  public static int defaultThreads() {
    return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  }

  /** The default share, yielding to nobody (in-process use without a protocol, tests). */
  public static Background standalone() {
    return new Background(defaultThreads(), Foreground.none());
  }

  public int threads() {
    return threads;
  }

  public Foreground foreground() {
    return foreground;
  }

  /** A daemon thread (not started) that lowers its own CPU priority before it runs {@code task}. */
  public Thread thread(String name, Runnable task) {
    Thread t = new Thread(() -> {
      LowPriority.lowerCurrentThread();
      task.run();
    }, name);
    t.setDaemon(true);
    return t;
  }

  /** Threads as {@link #thread} makes them, named {@code prefix-1}, {@code prefix-2}, … */
  public ThreadFactory threadFactory(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> thread(prefix + "-" + n.incrementAndGet(), r);
  }

  /** Lowers the calling thread, for a thread someone else created (a Lucene merge thread). */
  public static void lowerCurrentThread() {
    LowPriority.lowerCurrentThread();
  }
}
