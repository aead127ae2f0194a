package dev.gram.async;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tasks one at a time, in submission order, on a shared pool: the mailbox of an actor.
 * Different serial executors over the same pool run in parallel; the tasks of one never overlap.
 */
public final class SerialExecutor implements Executor {
  private final Executor pool;
  private final Queue<Runnable> tasks = new ArrayDeque<>();
  private final AtomicInteger depth = new AtomicInteger();
  private boolean running;
  // guarded by tasks: a task asked the next ones to wait (hold), and drain stopped for it (parked)
  private boolean held;
  private boolean parked;

  public SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    depth.incrementAndGet();
    synchronized (tasks) {
      tasks.add(task);
      if (running) {
        return;
      }
      running = true;
    }
    pool.execute(this::drain);
  }

  /**
   * Called by the running task: the tasks after it wait, without holding a pool thread, until the
   * returned action runs (once; later runs do nothing). How an actor keeps its order across work
   * that finishes elsewhere, such as other nodes acknowledging a commit.
   */
  public Runnable hold() {
    synchronized (tasks) {
      held = true;
    }
    java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
    return () -> {
      if (!once.compareAndSet(false, true)) {
        return;
      }
      boolean resume;
      synchronized (tasks) {
        held = false;
        resume = parked;
        parked = false;
      }
      if (resume) {
        pool.execute(this::drain);
      }
    };
  }

  /** Tasks queued or running. */
  public int depth() {
    return depth.get();
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (tasks) {
        next = tasks.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      try {
        next.run();
      } catch (RuntimeException | Error e) {
        org.slf4j.LoggerFactory.getLogger(SerialExecutor.class).error("task failed", e);
      } finally {
        depth.decrementAndGet();
      }
      synchronized (tasks) {
        if (held) {
          parked = true; // still "running": the release resumes draining
          return;
        }
      }
    }
  }
}
