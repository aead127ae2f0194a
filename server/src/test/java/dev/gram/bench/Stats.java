package dev.gram.bench;

import java.util.Arrays;
import java.util.Locale;

/** Latencies of one measured case, with the counts a row needs. */
record Stats(String name, long operations, double seconds, long[] latenciesNanos, long errors, long extra) {

  double perSecond() {
    return operations / seconds;
  }

  double percentileMillis(double p) {
    long[] l = latenciesNanos.clone();
    Arrays.sort(l);
    if (l.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(l.length - 1, Math.ceil(p * l.length) - 1);
    return l[Math.max(0, i)] / 1e6;
  }

  double p50() {
    return percentileMillis(0.50);
  }

  double p99() {
    return percentileMillis(0.99);
  }

  static String ms(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
