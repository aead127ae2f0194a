package dev.gram.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every thread the store starts, named and sized here (docs/architecture.md lists them from this
 * class). None of them is an event loop; results go back to a caller's Vert.x context through
 * {@link dev.gram.async.Async}.
 *
 * <ul>
 *   <li>{@code gram-io-N}: the vault's I/O pool. Every document's mailbox runs on it (loads,
 *       commits, checkpoints), and so do the tools' reads that touch files. Sized for waiting,
 *       not for CPU: a commit's thread waits for the log's fsync, and group commit only shares an
 *       fsync among commits whose threads wait at once, so the pool is larger than the cores.
 *   <li>{@code gram-checkpoint}: one thread that starts a checkpoint round every checkpoint lag.
 *   <li>{@code gram-watch}: the file watcher, which blocks on the operating system's events.
 *   <li>{@code gram-vault-close}: one short-lived thread that runs the last checkpoint at close.
 * </ul>
 */
final class StoreThreads {
  /** The server's I/O pool size: commits of this many documents can wait for one fsync together. */
  static final int SERVER_IO_THREADS = 16;

  private StoreThreads() {}

  static ExecutorService io(int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, daemon(() -> "gram-io-" + n.incrementAndGet()));
  }

  static ScheduledExecutorService checkpointer() {
    return Executors.newSingleThreadScheduledExecutor(daemon(() -> "gram-checkpoint"));
  }

  static Thread watcher(Runnable r) {
    return daemon(() -> "gram-watch").newThread(r);
  }

  static Thread closer(Runnable r) {
    return daemon(() -> "gram-vault-close").newThread(r);
  }

  private static ThreadFactory daemon(java.util.function.Supplier<String> name) {
    return r -> {
      Thread t = new Thread(r, name.get());
      t.setDaemon(true);
      return t;
    };
  }
}
