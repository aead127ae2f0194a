package dev.gram.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * Group commit: commits that wait for durability at the same moment share one fsync. The first
 * waiter becomes the leader and syncs everything appended so far ({@link SegmentSet#beginSync});
 * the others wait for it, and whoever arrives during that fsync is covered by the next one. A
 * record is durable once an fsync that began after it was written has returned; a failed fsync
 * acknowledges nobody it might have covered.
 */
final class GroupCommit {
  private record Failure(long from, long to, IOException cause) {}

  private final SegmentSet segments;
  private final Object lock = new Object();
  // guarded by lock
  private long syncedThrough;
  private boolean syncing;
  private final ArrayDeque<Failure> failures = new ArrayDeque<>();

  GroupCommit(SegmentSet segments) {
    this.segments = segments;
  }

  /** Records up to {@code seq} were found on disk at start (and synced then). */
  void continueAfter(long seq) {
    synchronized (lock) {
      syncedThrough = Math.max(syncedThrough, seq);
    }
  }

  /**
   * Waits until record {@code seq} is durable.
   *
   * @throws IOException when the fsync that covered it failed: the record is void (it will not be
   *     replayed once the void record is durable) but may be on disk until then
   */
  void awaitDurable(long seq) throws IOException {
    if (!becomeLeader(seq)) {
      return;
    }
    SegmentSet.Batch batch = segments.beginSync();
    IOException failure = null;
    try {
      for (Segment s : batch.segments()) {
        try {
          s.channel.force(false);
        } catch (ClosedChannelException e) {
          if (!s.deleted) {
            throw e;
          }
          // The checkpointer deleted it: every record in it is in its document's file already.
        }
      }
    } catch (IOException e) {
      failure = e;
    }
    long from;
    synchronized (lock) {
      from = syncedThrough + 1;
    }
    long to;
    if (failure == null) {
      segments.synced(batch);
      to = batch.covers();
    } else {
      to = segments.failed(batch, from, failure);
    }
    synchronized (lock) {
      syncing = false;
      if (failure != null) {
        failures.addLast(new Failure(from, to, failure));
        while (failures.size() > 1000) {
          failures.removeFirst();
        }
      }
      syncedThrough = Math.max(syncedThrough, to);
      lock.notifyAll();
      IOException failed = failureCovering(seq);
      if (failed != null) {
        throw failed;
      }
    }
    if (failure == null && batch.covers() < seq) {
      awaitDurable(seq); // appended after this leader read lastSeq: cannot happen, but never ack early
    }
  }

  /** Waits until {@code seq} is durable (false) or this caller is to run the next fsync (true). */
  private boolean becomeLeader(long seq) throws IOException {
    synchronized (lock) {
      while (true) {
        IOException failed = failureCovering(seq);
        if (failed != null) {
          throw failed;
        }
        if (syncedThrough >= seq) {
          return false;
        }
        if (!syncing) {
          syncing = true;
          return true;
        }
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for the log's fsync");
        }
      }
    }
  }

  // guarded by lock
  private IOException failureCovering(long seq) {
    for (Failure f : failures) {
      if (seq >= f.from() && seq <= f.to()) {
        return f.cause();
      }
    }
    return null;
  }
}
