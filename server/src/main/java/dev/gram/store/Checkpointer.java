package dev.gram.store;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the log into the {@code .gram} files. Every {@code lag} a round starts a new log segment,
 * rewrites the file of every document written since the last round (one durable replace however
 * many revisions it folds, through the document's own mailbox so it never races a commit), and
 * deletes each older segment once every document with records in it has a file that holds them.
 * A document whose checkpoint fails (a full disk, a damaged log record) stays owed, and the
 * segments that hold its records stay, until a later round succeeds.
 *
 * <p>Rounds run on one thread of their own, never on the I/O pool's or an event loop's.
 */
final class Checkpointer {
  private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

  /** How one document is checkpointed: true once its file holds every revision. */
  interface Target {
    Future<Boolean> checkpoint(String path);
  }

  private final WriteAheadLog log;
  private final Target target;
  private final Duration lag;
  private final ScheduledExecutorService thread;
  // touched only on the checkpoint thread
  private final Set<String> owing = new HashSet<>();
  private final List<WriteAheadLog.Segment> retired = new ArrayList<>();
  private long rounds;
  private volatile long lastRoundNanos;

  Checkpointer(WriteAheadLog log, Target target, Duration lag) {
    this.log = log;
    this.target = target;
    this.lag = lag;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gram-checkpoint");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts the rounds; the segments recovery found and their documents are owed first. */
  void start(Collection<WriteAheadLog.Segment> found, Collection<String> documents) {
    thread.execute(() -> {
      retired.addAll(found);
      owing.addAll(documents);
    });
    long every = Math.max(1, lag.toMillis());
    thread.scheduleWithFixedDelay(this::roundQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /** Runs one round now and waits for it: a clean shutdown and tests use this. */
  void flush() {
    try {
      thread.submit(this::round).get(5, TimeUnit.MINUTES);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // already stopped
    } catch (Exception e) {
      LOG.warn("final checkpoint did not finish: {}", e.toString());
    }
  }

  /** A last round, then no more. */
  void close() {
    flush();
    thread.shutdownNow();
  }

  /** Stops without a last round, as a killed process would (tests of recovery). */
  void abandon() {
    thread.shutdownNow();
  }

  int owing() {
    return owing.size();
  }

  private void roundQuietly() {
    try {
      round();
    } catch (RuntimeException e) {
      LOG.error("checkpoint round failed", e);
    }
  }

  private void round() {
    WriteAheadLog.Rotation r = log.rotate();
    retired.addAll(r.retired());
    retired.sort(java.util.Comparator.comparingLong(s -> s.firstSeq));
    owing.addAll(r.dirty());
    if (owing.isEmpty() && retired.isEmpty()) {
      return;
    }
    long start = System.nanoTime();
    Map<String, CompletableFuture<Boolean>> pending = new LinkedHashMap<>();
    for (String path : owing) {
      pending.put(path, target.checkpoint(path).toCompletionStage().toCompletableFuture());
    }
    for (Map.Entry<String, CompletableFuture<Boolean>> e : pending.entrySet()) {
      try {
        if (Boolean.TRUE.equals(e.getValue().get(2, TimeUnit.MINUTES))) {
          owing.remove(e.getKey());
        }
      } catch (Exception ex) {
        LOG.warn("checkpoint of {} failed; its log records stay: {}", e.getKey(), String.valueOf(ex.getCause() == null ? ex : ex.getCause()));
      }
    }
    List<WriteAheadLog.Segment> cleared = new ArrayList<>();
    boolean olderKept = false;
    for (Iterator<WriteAheadLog.Segment> it = retired.iterator(); it.hasNext(); ) {
      WriteAheadLog.Segment s = it.next();
      // Void records cancel records of older segments: they go only after every older one.
      boolean clear = !(s.holdsVoids && olderKept);
      for (String d : s.docs) {
        if (owing.contains(d)) {
          clear = false;
          break;
        }
      }
      if (clear) {
        cleared.add(s);
        it.remove();
      } else {
        olderKept = true;
      }
    }
    retired.addAll(0, log.delete(cleared));
    rounds++;
    lastRoundNanos = System.nanoTime() - start;
    if (LOG.isDebugEnabled()) {
      LOG.debug("checkpoint round {}: {} documents in {} µs, {} owed, {} segments kept",
          rounds, pending.size(), lastRoundNanos / 1000, owing.size(), retired.size());
    }
  }
}
