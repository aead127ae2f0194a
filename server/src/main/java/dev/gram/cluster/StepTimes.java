package dev.gram.cluster;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long one of the cluster's own steps took lately (a Hazelcast call, a replication round
 * trip): the last {@value #KEPT} durations, for their median on {@code /metrics}. Adding one costs
 * two atomic writes; the median is computed only when asked.
 */
public final class StepTimes {
  static final int KEPT = 1024;

  private final AtomicLongArray ring = new AtomicLongArray(KEPT);
  private final AtomicLong count = new AtomicLong();

  /** Notes a step that began at {@code startNanos} ({@link System#nanoTime}) and ends now. */
  void since(long startNanos) {
    add(System.nanoTime() - startNanos);
  }

  void add(long nanos) {
    long i = count.getAndIncrement();
    ring.set((int) (i % KEPT), nanos);
  }

  /** The median of the durations kept, in seconds; 0 before the first. */
  public double p50Seconds() {
    int n = (int) Math.min(count.get(), KEPT);
    if (n == 0) {
      return 0;
    }
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = ring.get(i);
    }
    Arrays.sort(v);
    return v[n / 2] / 1e9;
  }

  /** How many steps were timed since start. */
  public long count() {
    return count.get();
  }
}
