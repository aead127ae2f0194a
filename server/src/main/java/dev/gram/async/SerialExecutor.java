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
    }
  }
}
