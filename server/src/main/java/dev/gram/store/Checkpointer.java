package dev.gram.store;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
 * <p>A large file is rewritten less often: after a checkpoint that left a file of {@code b} bytes,
 * the document waits {@link #spacing} (one lag per {@link #SPACING_BYTES}, at most
 * {@link #MAX_LAGS} lags) before the next. Why: the whole file is written, synced and, by every
 * other node of a cluster, read back at each checkpoint, and a file holds every revision, so a
 * document written all the time cost a full rewrite each lag however little changed (a 1.5 MB
 * file each second in {@code ClusterBench}). The revisions are durable in the log meanwhile and
 * every read sees them; only the file lags, by at most {@code MAX_LAGS} lags. A last round before
 * a clean stop ({@link #flush}) writes every owed file whatever its spacing.
 *
 * <p>Rounds run on one thread of their own, never on the I/O pool's or an event loop's.
 */
final class Checkpointer {
  private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

  /** A file this large or smaller may be rewritten every lag. */
  static final long SPACING_BYTES = 256 * 1024;
  /** The longest a document's file waits between two checkpoints, in lags. */
  static final long MAX_LAGS = 30;

  /**
   * How one document is checkpointed: completes with the size of its file once the file holds
   * every revision, or -1 while it does not.
   */
  interface Target {
    Future<Long> checkpoint(String path);
  }

  private final WriteAheadLog log;
  private final Target target;
  private final Duration lag;
  private final ScheduledExecutorService thread;
  // touched only on the checkpoint thread
  private final Set<String> owing = new HashSet<>();
  /** When a large file may be checkpointed again (System.nanoTime); absent: at once. */
  private final Map<String, Long> notBefore = new HashMap<>();
  private final List<Segment> retired = new ArrayList<>();
  private volatile long rounds;
  private volatile long lastRoundNanos;

  Checkpointer(WriteAheadLog log, Target target, Duration lag) {
    this.log = log;
    this.target = target;
    this.lag = lag;
    this.thread = StoreThreads.checkpointer();
  }

  /** Starts the rounds; the segments recovery found and their documents are owed first. */
  void start(Collection<Segment> found, Collection<String> documents) {
    thread.execute(() -> {
      retired.addAll(found);
      owing.addAll(documents);
    });
    long every = Math.max(1, lag.toMillis());
    thread.scheduleWithFixedDelay(this::roundQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * How long a document whose file has {@code fileBytes} waits after a checkpoint before the next:
   * one lag per {@link #SPACING_BYTES} (rounded down, at least one), at most {@link #MAX_LAGS}.
   */
  static long spacing(long lagNanos, long fileBytes) {
    return lagNanos * Math.max(1, Math.min(MAX_LAGS, fileBytes / SPACING_BYTES));
  }

  /** Rounds finished so far, empty ones too (tests wait for rounds to pass). */
  long rounds() {
    return rounds;
  }

  /**
   * Runs one round now, of every owed file whatever its spacing, and waits for it: a clean
   * shutdown and tests use this.
   */
  void flush() {
    try {
      thread.submit(() -> round(true)).get(5, TimeUnit.MINUTES);
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
      round(false);
    } catch (RuntimeException e) {
      LOG.error("checkpoint round failed", e);
    }
  }

  private void round(boolean everyFile) {
    SegmentSet.Rotation r = log.rotate();
    retired.addAll(r.retired());
    retired.sort(java.util.Comparator.comparingLong(s -> s.firstSeq));
    owing.addAll(r.dirty());
    if (owing.isEmpty() && retired.isEmpty()) {
      rounds++;
      return;
    }
    long start = System.nanoTime();
    notBefore.values().removeIf(t -> start - t >= 0); // past: the same as absent
    Map<String, CompletableFuture<Long>> pending = new LinkedHashMap<>();
    for (String path : owing) {
      if (everyFile || !notBefore.containsKey(path)) {
        pending.put(path, target.checkpoint(path).toCompletionStage().toCompletableFuture());
      }
    }
    long lagNanos = lag.toNanos();
    for (Map.Entry<String, CompletableFuture<Long>> e : pending.entrySet()) {
      try {
        long bytes = e.getValue().get(2, TimeUnit.MINUTES);
        if (bytes >= 0) {
          owing.remove(e.getKey());
          if (bytes > SPACING_BYTES) {
            notBefore.put(e.getKey(), System.nanoTime() + spacing(lagNanos, bytes));
          } else {
            notBefore.remove(e.getKey());
          }
        }
      } catch (Exception ex) {
        LOG.warn("checkpoint of {} failed; its log records stay: {}", e.getKey(), String.valueOf(ex.getCause() == null ? ex : ex.getCause()));
      }
    }
    List<Segment> cleared = new ArrayList<>();
    boolean olderKept = false;
    for (Iterator<Segment> it = retired.iterator(); it.hasNext(); ) {
      Segment s = it.next();
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
