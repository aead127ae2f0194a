package dev.gram.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append side of the write-ahead log: the segment records go into now, the retired ones not
 * yet known synced, the ones given up after a failed fsync, and the void records still to write.
 * Everything here is guarded by one lock; {@link GroupCommit} asks it what to sync ({@link
 * #beginSync}) and tells it how that went ({@link #synced}, {@link #failed}).
 */
final class SegmentSet {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentSet.class);

  /**
   * What a checkpoint round takes over: the segments retired since the last round (the one just
   * rotated, and any abandoned after a failed fsync), and the documents written since.
   */
  record Rotation(List<Segment> retired, Set<String> dirty) {}

  /**
   * What one fsync round covers: every record up to {@code covers}, in {@code segments}, each of
   * which had received records up to {@code appendedThrough[i]} when the round began.
   */
  record Batch(long covers, List<Segment> segments, long[] appendedThrough) {}

  private final Path dir;
  private final Object lock = new Object();
  // guarded by lock
  private Segment current;
  private long lastSeq;
  private final List<Segment> rotatedUnsynced = new ArrayList<>();
  private final List<Segment> abandoned = new ArrayList<>();
  private final List<long[]> pendingVoids = new ArrayList<>();
  private Set<String> dirty = new HashSet<>();
  private boolean closed;
  private final LongAdder appended = new LongAdder();

  SegmentSet(Path dir) {
    this.dir = dir;
  }

  void continueAfter(long seq) {
    synchronized (lock) {
      lastSeq = Math.max(lastSeq, seq);
    }
  }

  /** Appends a revision record; returns its sequence number. Nothing is durable yet. */
  long append(String path, byte[] payload) throws IOException {
    synchronized (lock) {
      checkOpen();
      while (!pendingVoids.isEmpty()) {
        long[] v = pendingVoids.get(0);
        writeFrame(null, LogRecord.voidPayload(v[0], v[1]));
        pendingVoids.remove(0);
      }
      long seq = writeFrame(path, payload);
      dirty.add(path);
      appended.increment();
      return seq;
    }
  }

  /** Appends a void record cancelling record {@code seq}; returns the void record's number. */
  long appendVoid(long seq) throws IOException {
    synchronized (lock) {
      checkOpen();
      return writeFrame(null, LogRecord.voidPayload(seq, seq));
    }
  }

  void markDirty(String path) {
    synchronized (lock) {
      dirty.add(path);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("the write-ahead log is closed");
    }
  }

  /**
   * One frame at the end of the current segment. A write that fails is cut back out; when even
   * that fails the segment is retired, and its torn frame stays at its end, where recovery
   * discards it.
   */
  // guarded by lock
  private long writeFrame(String path, byte[] payload) throws IOException {
    if (payload.length > FrameCodec.MAX_PAYLOAD) {
      throw new IOException("a log record of " + payload.length + " bytes is over the limit of " + FrameCodec.MAX_PAYLOAD);
    }
    if (current == null) {
      current = Segment.create(dir, lastSeq + 1);
    }
    long seq = lastSeq + 1;
    ByteBuffer frame = FrameCodec.encode(seq, payload);
    long at = current.size;
    try {
      while (frame.hasRemaining()) {
        current.channel.write(frame, at + frame.position());
      }
    } catch (IOException e) {
      try {
        current.channel.truncate(at);
      } catch (IOException t) {
        LOG.warn("could not cut a failed write back out of {}: {}; continuing in a new segment", current, t.toString());
        retireCurrent();
      }
      throw e;
    }
    current.size = at + frame.limit();
    current.records++;
    current.lastSeq = seq;
    if (path != null) {
      current.docs.add(path);
    } else {
      current.holdsVoids = true;
    }
    lastSeq = seq;
    return seq;
  }

  // guarded by lock
  private void retireCurrent() {
    if (current != null) {
      rotatedUnsynced.add(current);
      current = null;
    }
  }

  // ------------------------------------------------------------------ group commit's side

  /** The records appended so far and the segments that hold the unsynced ones. */
  Batch beginSync() {
    synchronized (lock) {
      List<Segment> toSync = new ArrayList<>(rotatedUnsynced);
      if (current != null) {
        toSync.add(current);
      }
      long[] through = new long[toSync.size()];
      for (int i = 0; i < toSync.size(); i++) {
        through[i] = toSync.get(i).lastSeq;
      }
      return new Batch(lastSeq, toSync, through);
    }
  }

  /**
   * The batch's fsync returned. The invariant (docs/gram-format.md §14.6): a retired segment
   * leaves the set to sync only when the fsync that just returned began after its last append.
   * Records appended to it while that fsync ran, before the checkpointer retired it, are not
   * covered: it stays, and the next round syncs it again before they are acknowledged.
   */
  void synced(Batch b) {
    synchronized (lock) {
      for (int i = 0; i < b.segments().size(); i++) {
        Segment s = b.segments().get(i);
        if (s != current && s.lastSeq == b.appendedThrough()[i]) {
          rotatedUnsynced.remove(s);
          s.closeQuietly();
        }
      }
    }
  }

  /**
   * The batch's fsync failed: every record from {@code from} on fails with it, including those
   * appended while it ran (they sit in the segment being abandoned; after a failed fsync the kernel
   * may have dropped its pages, so a second fsync would prove nothing). A void record naming them
   * opens the next segment at once. Returns the last record that failed.
   */
  long failed(Batch b, long from, IOException cause) {
    synchronized (lock) {
      synced(b);
      long to = lastSeq;
      if (current != null) {
        current.closeQuietly();
        abandoned.add(current); // deleted like any other once its documents are checkpointed
        current = null;
      }
      for (Segment s : rotatedUnsynced) {
        s.closeQuietly();
      }
      rotatedUnsynced.clear();
      pendingVoids.add(new long[] {from, to});
      LOG.error("fsync of the write-ahead log failed; records {} to {} are void: {}", from, to, cause.toString());
      writeVoidsNow();
      return to;
    }
  }

  /**
   * Makes the pending void records durable at once, in a new segment, rather than with the next
   * commit: until they are, the abandoned segment may come back from a power cut with a hole
   * where the disk dropped the failed batch, followed by records of it that it kept, which
   * recovery could only read as damage in the middle. When this fails too, they stay pending and
   * open the next segment.
   */
  // guarded by lock
  private void writeVoidsNow() {
    try {
      for (long[] v : pendingVoids) {
        writeFrame(null, LogRecord.voidPayload(v[0], v[1]));
      }
      current.channel.force(false);
      pendingVoids.clear();
    } catch (IOException e) {
      LOG.warn("the void record after a failed fsync is not durable yet ({}); it opens the next segment", e.toString());
      if (current != null) {
        current.closeQuietly();
        abandoned.add(current);
        current = null;
      }
    }
  }

  // ------------------------------------------------------------------ the checkpointer's side

  /** Starts a new segment for later appends and hands the retired ones to the checkpointer. */
  Rotation rotate() {
    synchronized (lock) {
      Set<String> taken = dirty;
      dirty = new HashSet<>();
      List<Segment> retired = new ArrayList<>(abandoned);
      abandoned.clear();
      Segment old = current;
      if (old != null && old.records > 0) {
        retireCurrent();
        retired.add(old);
      }
      return new Rotation(retired, taken);
    }
  }

  /**
   * Deletes segments every record of which is in its document's file, then syncs the log's folder
   * so that they do not come back after a power cut. A segment holding void records goes only
   * after the older ones' deletion is durable. Returns the segments kept for a later round.
   */
  List<Segment> delete(List<Segment> segments) {
    List<Segment> oldestFirst = new ArrayList<>(segments);
    oldestFirst.sort(Comparator.comparingLong(s -> s.firstSeq));
    boolean unlinkedSinceSync = false;
    for (int i = 0; i < oldestFirst.size(); i++) {
      Segment s = oldestFirst.get(i);
      if (s.holdsVoids && unlinkedSinceSync) {
        try {
          DurableFiles.syncFolder(dir);
        } catch (IOException e) {
          LOG.warn("could not fsync the log folder; keeping {} for the next round: {}", s, e.toString());
          return oldestFirst.subList(i, oldestFirst.size());
        }
      }
      unlinkedSinceSync = true;
      synchronized (lock) {
        if (s == current) {
          throw new IllegalStateException("the current segment cannot be deleted");
        }
        s.deleted = true;
        rotatedUnsynced.remove(s);
        s.closeQuietly();
      }
      try {
        Files.deleteIfExists(s.file);
      } catch (IOException e) {
        LOG.warn("could not delete log segment {}: {}", s.file, e.toString());
      }
    }
    if (unlinkedSinceSync) {
      try {
        DurableFiles.syncFolder(dir);
      } catch (IOException e) {
        LOG.warn("could not fsync the log folder after deleting segments: {}", e.toString());
      }
    }
    return List.of();
  }

  long appended() {
    return appended.sum();
  }

  /** No more appends; a last fsync of the current segment (a clean stop has nothing unsynced that matters). */
  void close() {
    synchronized (lock) {
      closed = true;
      if (current != null) {
        try {
          current.channel.force(false);
        } catch (IOException e) {
          LOG.warn("final fsync of {} failed: {}", current, e.toString());
        }
        current.closeQuietly();
      }
      for (Segment s : rotatedUnsynced) {
        s.closeQuietly();
      }
    }
  }
}
