package dev.gram.async;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * What the agents are doing right now, as the server's background work sees it: how many tool
 * calls are in flight, and when the last one ended. The protocol counts each call from its start
 * to its answer; background workers (the embedder, the index's rebuild, the vault's start-up scan)
 * look here between two batches and give way while the foreground is busy.
 *
 * <p>Busy means a call is in flight or one ended less than {@link #QUIET_MS} ago: an agent that
 * calls in a loop sends its next call within that time, and a batch started in the gap would run
 * beside it. Giving way is bounded by whoever waits ({@link #awaitQuiet}), so a steady stream of
 * calls slows background work down and never stops it.
 *
 * <p>Counting is two atomic updates per call on the caller's thread; waiting threads are woken
 * only when the count drops to zero and someone waits.
 */
public final class Foreground {
  /** How long after the last call ends the foreground still counts as busy. */
  public static final long QUIET_MS = 20;

  private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);

  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  /** Starts a minute in the past: nanoTime's origin is arbitrary, so 0 could be "just now". */
  private volatile long lastEnded = System.nanoTime() - TimeUnit.MINUTES.toNanos(1);
  private volatile int waiting;
  // Guarded by this: tasks run once no call is in flight.
  private final List<Runnable> whenIdle = new ArrayList<>();

  /** A foreground nobody reports to: never busy (in-process tools, tests of one part). */
  public static Foreground none() {
    return new Foreground();
  }

  /** A tool call started. */
  public void started() {
    inFlight.incrementAndGet();
  }

  /** A tool call ended (answered, failed or cancelled). */
  public void ended() {
    lastEnded = System.nanoTime();
    if (inFlight.decrementAndGet() == 0 && waiting > 0) {
      wakeWaiters();
    }
  }

  /** Tool calls in flight now. */
  public int inFlight() {
    return inFlight.get();
  }

  /** A call is in flight, or the last one ended less than {@link #QUIET_MS} ago. */
  public boolean busy() {
    return inFlight.get() > 0 || System.nanoTime() - lastEnded < QUIET_NANOS;
  }

  /**
   * Blocks a background thread while the foreground is {@link #busy}, at most {@code maxMs}.
   * Returns the milliseconds it waited. Never call it on an event loop.
   */
  public long awaitQuiet(long maxMs) throws InterruptedException {
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(maxMs);
    while (busy()) {
      long now = System.nanoTime();
      if (now >= end) {
        break;
      }
      if (inFlight.get() > 0) {
        synchronized (this) {
          waiting++;
          try {
            if (inFlight.get() > 0) {
              TimeUnit.NANOSECONDS.timedWait(this, end - now);
            }
          } finally {
            waiting--;
          }
        }
      } else {
        // Nothing in flight: sleep out what is left of the quiet time.
        long quietEnds = lastEnded + QUIET_NANOS;
        TimeUnit.NANOSECONDS.sleep(Math.max(100_000, Math.min(quietEnds, end) - now));
      }
    }
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /**
   * Blocks while a call is in flight, at most {@code maxNanos}; unlike {@link #awaitQuiet} it
   * returns as soon as the last one has ended. For work that should follow the answers of the
   * calls running now rather than run beside them (notifications of a write, after its receipt).
   */
  public void awaitNoneInFlight(long maxNanos) throws InterruptedException {
    if (inFlight.get() == 0) {
      return;
    }
    long end = System.nanoTime() + maxNanos;
    synchronized (this) {
      waiting++;
      try {
        long left;
        while (inFlight.get() > 0 && (left = end - System.nanoTime()) > 0) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } finally {
        waiting--;
      }
    }
  }

  /**
   * Runs {@code task} once no call is in flight: at once when none is, else on the thread of the
   * call that ends last (so the task must only hand work on, never do it). For background work
   * that waits without holding a thread.
   */
  public void whenIdle(Runnable task) {
    synchronized (this) {
      // Counted before the check: a call ending meanwhile then sees someone waiting.
      waiting++;
      if (inFlight.get() > 0) {
        whenIdle.add(task);
        return;
      }
      waiting--;
    }
    task.run();
  }

  private void wakeWaiters() {
    List<Runnable> tasks;
    synchronized (this) {
      if (inFlight.get() > 0) {
        return;
      }
      notifyAll();
      tasks = List.copyOf(whenIdle);
      waiting -= whenIdle.size();
      whenIdle.clear();
    }
    for (Runnable t : tasks) {
      try {
        t.run();
      } catch (RuntimeException e) {
        // The call that ended must still be answered, whatever a background task does.
        LoggerFactory.getLogger(Foreground.class).warn("a task waiting for the agents' calls failed", e);
      }
    }
  }
}
