package dev.gram.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The write-ahead log: where a revision becomes durable. A commit appends one framed record
 * ({@link SegmentSet}, {@link FrameCodec}) and is acknowledged once an fsync that started after
 * the append has returned ({@link GroupCommit}: commits of different documents that wait at the
 * same moment share one fsync). The checkpointer rotates segments and deletes those whose records
 * are all in their files. Files live in {@value #FOLDER} inside the vault, under a lock one process
 * holds ({@link LogLock}); the format is docs/gram-format.md §14.
 *
 * <p>The invariant that makes an acknowledgement true, whatever the checkpointer does meanwhile: a
 * record is acknowledged only after an fsync of the segment that holds it has returned, an fsync
 * that began after the record was written; and a segment leaves the set of files to sync only when
 * an fsync that began after its last append has returned ({@link SegmentSet#synced}). At start, the
 * segments a previous run left are fsynced before anything is replayed from them, since what a
 * killed process wrote may still be only in the page cache, and a replayed record can be
 * acknowledged again (a retry's receipt).
 *
 * <p>A failed fsync acknowledges nobody it might have covered: every record appended and not yet
 * synced fails, the segment they are in is abandoned, and a {@code void} record naming them opens
 * the next segment, so that a retry of the same write, logged after it, can never be shadowed at
 * replay by a copy that was never acknowledged.
 */
final class WriteAheadLog implements AutoCloseable {
  static final String FOLDER = ".gram-wal";
  static final String LOCK_FILE = "LOCK";
  /** Where cluster nodes keep their logs, one folder per node name. */
  static final String NODES = "nodes";

  private final LogLock.Opened opened;
  private final SegmentSet segments;
  private final GroupCommit groupCommit;

  private WriteAheadLog(LogLock.Opened opened) {
    this.opened = opened;
    this.segments = new SegmentSet(opened.dir());
    this.groupCommit = new GroupCommit(segments);
  }

  /**
   * Opens (creating) the log folder of a vault and takes its lock.
   *
   * @throws VaultInUseException when another process (or another vault object here) holds it
   */
  static WriteAheadLog open(Path vaultRoot) throws IOException {
    return open(vaultRoot, null);
  }

  /** Opens the log of one process serving the vault: its own, or a cluster node's ({@link LogLock#open}). */
  static WriteAheadLog open(Path vaultRoot, String node) throws IOException {
    return new WriteAheadLog(LogLock.open(vaultRoot, node));
  }

  Path dir() {
    return opened.dir();
  }

  /** The segment files present now, oldest first. */
  List<Path> segmentFiles() throws IOException {
    return Segment.files(opened.dir());
  }

  static List<Path> segmentFiles(Path dir) throws IOException {
    return Segment.files(dir);
  }

  /**
   * Makes what a previous run left in the log durable before it is replayed: the segments (a
   * killed process may have written records that are still only in the page cache, and a replayed
   * record can be acknowledged to a retry), and the names of the log's folders up to the vault's
   * own (a log folder a crashed first start created may not be a durable name yet).
   */
  void syncRecovered(Path vaultRoot) throws IOException {
    for (Path seg : segmentFiles()) {
      try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.READ)) {
        ch.force(false);
      }
    }
    DurableFiles.syncFolderNames(vaultRoot.toAbsolutePath().getParent(), opened.dir());
  }

  /** Continues numbering after what recovery found on disk; call before the first append. */
  void continueAfter(long seq) {
    segments.continueAfter(seq);
    groupCommit.continueAfter(seq);
  }

  /**
   * Appends a revision record; returns its sequence number. Nothing is durable yet: call {@link
   * #awaitDurable}.
   */
  long append(String path, byte[] payload) throws IOException {
    return segments.append(path, payload);
  }

  /** Waits until record {@code seq} is durable; see {@link GroupCommit#awaitDurable}. */
  void awaitDurable(long seq) throws IOException {
    groupCommit.awaitDurable(seq);
  }

  /**
   * Marks a document as owing a checkpoint although nothing of it was appended: an edit by another
   * program that became a revision, which only the file can hold.
   */
  void markDirty(String path) {
    segments.markDirty(path);
  }

  /**
   * Cancels a durable record that must not be replayed (a cluster node found, after logging it,
   * that another node had already committed that revision), and waits until the cancellation is
   * durable too.
   */
  void voidRecord(long seq) throws IOException {
    groupCommit.awaitDurable(segments.appendVoid(seq));
  }

  /** Hands the retired segments and the documents written since the last round to the checkpointer. */
  SegmentSet.Rotation rotate() {
    return segments.rotate();
  }

  /** Deletes segments whose records are all in their files; returns those kept for later. */
  List<Segment> delete(List<Segment> retired) {
    return retired.isEmpty() ? List.of() : segments.delete(retired);
  }

  /** Revision records appended since this process opened the log. */
  long appended() {
    return segments.appended();
  }

  @Override
  public void close() {
    segments.close();
    opened.release();
  }
}
