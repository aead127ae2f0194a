package dev.gram.bench;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Waits until the JIT compilers of a set of server processes are quiet: until, over a window of
 * {@link #WINDOW_MS}, their compiler threads used less than {@link #QUIET_SHARE} of all the
 * processes' CPU, after at least {@link #MIN_MS} and at most {@code bench.settleMaxSeconds}
 * (default 900).
 *
 * <p>Why a bench needs it: on a machine with fewer cores than busy JVMs, the compilers of three
 * cluster nodes were still taking a third of the nodes' CPU after 120 s of writes, and settled
 * after about five minutes (docs/cluster.md); meanwhile every other thread ran slower, its code not
 * yet compiled. A fixed warm-up then measures the JIT, and how long it takes to settle changes
 * with the machine.
 */
final class JitSettle {
  static final long MIN_MS = 30_000;
  static final long WINDOW_MS = 10_000;
  static final double QUIET_SHARE = 0.10;

  private JitSettle() {}

  /**
   * Returns once the compilers are quiet or the maximum has passed, and says on stderr which, and
   * after how long. {@code threadTicks} gives CPU ticks by thread, keyed by a string that ends
   * with the thread's name (as ClusterBench reads them from /proc).
   */
  static void await(Callable<Map<String, Long>> threadTicks) throws Exception {
    long maxMs = Long.getLong("bench.settleMaxSeconds", 900) * 1_000;
    long start = System.nanoTime();
    Map<String, Long> before = threadTicks.call();
    while (true) {
      Thread.sleep(WINDOW_MS);
      Map<String, Long> now = threadTicks.call();
      long all = 0;
      long compilers = 0;
      for (Map.Entry<String, Long> e : now.entrySet()) {
        long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
        all += used;
        if (e.getKey().contains("CompilerThre")) {
          compilers += used;
        }
      }
      before = now;
      double share = all == 0 ? 0 : (double) compilers / all;
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      if ((share < QUIET_SHARE && elapsedMs >= MIN_MS) || elapsedMs >= maxMs) {
        System.err.printf(Locale.ROOT, "warm-up: %d s, the compilers %.2f%% of the nodes' CPU in its last %d s%s%n",
            elapsedMs / 1_000, share * 100, WINDOW_MS / 1_000,
            share < QUIET_SHARE ? "" : " (not quiet: the maximum)");
        return;
      }
    }
  }
}
