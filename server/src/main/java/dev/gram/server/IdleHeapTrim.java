package dev.gram.server;

import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back the heap the JVM grew into during a burst of work once the server is quiet. Building
 * the index and embedding a vault at start allocate far more than the server keeps (at 10,000
 * records: 688 MiB of heap committed, 50 MiB live), and G1 returns committed memory to the system
 * only after a collection that finds it free, which an idle server never runs. So when no client
 * has called for {@link #IDLE}, the index has nothing pending, and the heap committed is much
 * more than the server kept after the last such collection (before the first: more than 256
 * MiB), one full collection runs (off the event loop, 60 ms at 10,000 records); G1 then
 * uncommits what it does not need. It runs at most once per quiet period, and never while clients
 * are active: a busy server keeps the heap it is using.
 */
final class IdleHeapTrim {
  private static final Logger LOG = LoggerFactory.getLogger(IdleHeapTrim.class);

  static final Duration CHECK = Duration.ofSeconds(10);
  static final Duration IDLE = Duration.ofSeconds(30);
  private static final long MIB = 1024 * 1024;

  private final Vertx vertx;
  private final LongSupplier activity;
  private final BooleanSupplier backgroundBusy;
  private long lastActivity = -1;
  private long quietSince = System.nanoTime();
  private boolean trimmedThisQuiet;
  private volatile boolean running;
  /** Heap in use right after the last collection this class ran, or -1 before the first. */
  private volatile long keptAfterTrim = -1;

  private IdleHeapTrim(Vertx vertx, LongSupplier activity, BooleanSupplier backgroundBusy) {
    this.vertx = vertx;
    this.activity = activity;
    this.backgroundBusy = backgroundBusy;
  }

  /**
   * @param activity a count that moves whenever a client is served
   * @param backgroundBusy true while the server's own background work (indexing, embedding) runs
   */
  static long start(Vertx vertx, LongSupplier activity, BooleanSupplier backgroundBusy) {
    IdleHeapTrim t = new IdleHeapTrim(vertx, activity, backgroundBusy);
    return vertx.setPeriodic(CHECK.toMillis(), id -> t.check());
  }

  /**
   * One full collection that leaves little free heap committed: the free-ratio bounds G1 resizes
   * to after a full collection are lowered for it (they are manageable flags) and put back after,
   * so later growth under load is the JVM's usual. At 10,000 records this takes the heap
   * committed from 692 to about 92 MiB instead of 240 with the default bounds.
   */
  private static void collectTight() {
    com.sun.management.HotSpotDiagnosticMXBean vm =
        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
    String min = null;
    String max = null;
    try {
      min = vm.getVMOption("MinHeapFreeRatio").getValue();
      max = vm.getVMOption("MaxHeapFreeRatio").getValue();
      vm.setVMOption("MinHeapFreeRatio", "10");
      vm.setVMOption("MaxHeapFreeRatio", "20");
    } catch (RuntimeException e) {
      LOG.debug("heap free ratios stay as they are: {}", e.toString());
    }
    try {
      System.gc();
    } finally {
      try {
        if (max != null) {
          vm.setVMOption("MaxHeapFreeRatio", max);
        }
        if (min != null) {
          vm.setVMOption("MinHeapFreeRatio", min);
        }
      } catch (RuntimeException e) {
        LOG.debug("could not restore the heap free ratios: {}", e.toString());
      }
    }
  }

  /** Worth a collection: the heap committed is well over twice what is kept (64 MiB at least). */
  static boolean oversized(long committed, long used) {
    return committed > 2 * Math.max(used, 64 * MIB) + 128 * MIB;
  }

  private void check() {
    long a = activity.getAsLong();
    long now = System.nanoTime();
    if (a != lastActivity || backgroundBusy.getAsBoolean()) {
      lastActivity = a;
      quietSince = now;
      trimmedThisQuiet = false;
      return;
    }
    if (running || trimmedThisQuiet || now - quietSince < IDLE.toNanos()) {
      return;
    }
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    // What the server keeps is known only after a full collection: until the first, the floor.
    // The heap in use before one is no estimate: at 100,000 records the old generation held
    // 388 MiB of which 208 were live, and a rule built on it never collected.
    if (!oversized(heap.getCommitted(), Math.max(keptAfterTrim, 0))) {
      return;
    }
    trimmedThisQuiet = true;
    running = true;
    vertx.<Void>executeBlocking(() -> {
      long t0 = System.nanoTime();
      collectTight();
      MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
      keptAfterTrim = after.getUsed();
      LOG.info("idle: heap committed {} -> {} MiB ({} MiB in use) after a collection of {} ms",
          heap.getCommitted() / MIB, after.getCommitted() / MIB, after.getUsed() / MIB, (System.nanoTime() - t0) / 1_000_000);
      return null;
    }, false).onComplete(ar -> running = false);
  }
}
