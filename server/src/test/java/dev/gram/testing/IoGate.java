package dev.gram.testing;

import dev.gram.store.Vault;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Holds every thread of the vault's I/O pool so a test can decide the order in which queued work
 * runs: work submitted while the gate is closed waits in the pool's queue, first in first out;
 * {@link #releaseOne()} lets one thread run the queue in that order. Used to make a read and a
 * concurrent replacement of the same document interleave the same way every time.
 */
public final class IoGate implements AutoCloseable {
  private final ThreadPoolExecutor pool;
  private final List<CountDownLatch> held = new ArrayList<>();

  private IoGate(ThreadPoolExecutor pool) {
    this.pool = pool;
  }

  /** Closes the gate: every pool thread waits until released. */
  public static IoGate close(Vault vault) {
    ThreadPoolExecutor pool = (ThreadPoolExecutor) vault.io();
    IoGate gate = new IoGate(pool);
    CountDownLatch started = new CountDownLatch(pool.getMaximumPoolSize());
    for (int i = 0; i < pool.getMaximumPoolSize(); i++) {
      CountDownLatch release = new CountDownLatch(1);
      gate.held.add(release);
      pool.execute(
          () -> {
            started.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
    try {
      if (!started.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("the I/O pool's threads did not all start");
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return gate;
  }

  /** Tasks waiting in the pool's queue. */
  public int queued() {
    return pool.getQueue().size();
  }

  /** Waits until at least {@code n} tasks are queued. */
  public void awaitQueued(int n) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (queued() < n) {
      if (System.nanoTime() > end) {
        throw new AssertionError("expected " + n + " queued tasks, have " + queued());
      }
      Thread.onSpinWait();
    }
  }

  /** Lets one pool thread go: it runs the queued tasks in order. */
  public void releaseOne() {
    for (CountDownLatch l : held) {
      if (l.getCount() > 0) {
        l.countDown();
        return;
      }
    }
  }

  @Override
  public void close() {
    for (CountDownLatch l : held) {
      l.countDown();
    }
  }
}
