package dev.gram.store;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Commits that have taken their recorded time and are not yet published. A commit takes its
 * time before its revision is durable and visible, so another document's later revision can
 * become visible first; {@link #visibleThrough} is the latest time through which every revision
 * is visible, so that a "since" cursor handed out never skips the slower one.
 */
final class CommitsInFlight {
  private final Clock clock;
  private final Map<Long, Instant> started = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  CommitsInFlight(Clock clock) {
    this.clock = clock;
  }

  /** Registers a commit whose recorded time will be at least {@code now}; returns its id for {@link #ended}. */
  long started(Instant now) {
    long id = ids.incrementAndGet();
    started.put(id, now);
    return id;
  }

  void ended(long id) {
    started.remove(id);
  }

  Instant visibleThrough() {
    Instant limit = dev.gram.format.Times.truncate(clock.instant()).minusMillis(1);
    for (Instant s : started.values()) {
      Instant before = s.minusMillis(1);
      if (before.isBefore(limit)) {
        limit = before;
      }
    }
    return limit;
  }
}
