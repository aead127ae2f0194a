package dev.gram.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: where a revision becomes durable. A commit appends one framed record and
 * is acknowledged once an fsync (fdatasync) that started after the append has returned. Commits
 * of different documents that wait at the same moment share one fsync (group commit): the first
 * waiter becomes the leader and syncs everything appended so far; the others wait for it, and
 * whoever arrives during that sync is covered by the next one.
 *
 * <p>Files live in {@value #FOLDER} inside the vault: segments named by their first sequence
 * number (16 hex digits, {@code .wal}) and a {@code LOCK} file that one process at a time holds.
 * The format is in docs/gram-format.md, "The write-ahead log". Each segment starts with {@code
 * GRAMWAL1}; each frame is a 4-byte magic, the payload's length, the record's sequence number,
 * a CRC-32C over sequence number and payload, then the payload ({@link LogRecord}).
 *
 * <p>The invariant that makes an acknowledgement true, whatever the checkpointer does meanwhile: a
 * record is acknowledged only after an fsync of the segment that holds it has returned, an fsync
 * that began after the record was written; and a segment leaves the set of files to sync only when
 * an fsync that began after its last append has returned (see {@link #awaitDurable}). At start, the
 * segments a previous run left are fsynced before anything is replayed from them, since what a
 * killed process wrote may still be only in the page cache, and a replayed record can be
 * acknowledged again (a retry's receipt).
 *
 * <p>A failed fsync acknowledges nobody it might have covered: every record appended and not yet
 * synced fails, the segment they are in is abandoned (after a failed fsync the kernel may already
 * have dropped the dirty pages, so a second fsync proves nothing), and a {@code void} record
 * naming them opens the next segment, so that a retry of the same write, logged after it, can
 * never be shadowed at replay by a copy that was never acknowledged.
 */
final class WriteAheadLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);

  static final String FOLDER = ".gram-wal";
  static final String LOCK_FILE = "LOCK";
  /** Where cluster nodes keep their logs, one folder per node name. */
  static final String NODES = "nodes";
  static final String SEGMENT_SUFFIX = ".wal";
  static final byte[] SEGMENT_HEADER = "GRAMWAL1".getBytes(StandardCharsets.US_ASCII);
  static final int FRAME_MAGIC = 0x47524C31; // "GRL1"
  static final int FRAME_HEADER = 20;
  static final int MAX_PAYLOAD = 64 << 20;

  /** Fault injection for tests: called before the log writes or syncs. */
  interface Faults {
    Faults NONE = new Faults() {};

    default void beforeWrite(String path) throws IOException {}

    default void beforeSync() throws IOException {}
  }

  /** One segment file; {@code docs} are the documents with records in it. */
  static final class Segment {
    final Path file;
    final long firstSeq;
    final Set<String> docs = ConcurrentHashMap.newKeySet();
    FileChannel channel;
    long size;
    int records;
    /** The sequence number of the last record appended to it (guarded by the log's append lock). */
    long lastSeq;
    /**
     * It holds void records: they cancel records of older segments, so it may be deleted only
     * once no older segment is left (else the cancelled records would come back at replay).
     */
    volatile boolean holdsVoids;
    volatile boolean deleted;

    Segment(Path file, long firstSeq) {
      this.file = file;
      this.firstSeq = firstSeq;
    }

    @Override
    public String toString() {
      return file.getFileName().toString();
    }
  }

  /**
   * What a checkpoint round takes over: the segments retired since the last round, oldest first
   * (the one just rotated, and any abandoned after a failed fsync), and the documents written
   * since.
   */
  record Rotation(List<Segment> retired, Set<String> dirty) {}

  private record Failure(long from, long to, IOException cause) {}

  private final Path dir;
  private final Held lock;
  /** A cluster node's shared hold on the vault-level lock; null for a single process. */
  private final Held vaultLock;

  private final Object appendLock = new Object();
  // guarded by appendLock
  private Segment current;
  private long lastSeq;
  private final List<Segment> rotatedUnsynced = new ArrayList<>();
  /** Segments given up after a failed fsync, for the next rotation to hand to the checkpointer. */
  private final List<Segment> abandoned = new ArrayList<>();
  private final List<long[]> pendingVoids = new ArrayList<>();
  private Set<String> dirty = new HashSet<>();

  private final Object syncLock = new Object();
  // guarded by syncLock
  private long syncedThrough;
  private boolean syncing;
  private final ArrayDeque<Failure> failures = new ArrayDeque<>();

  private volatile Faults faults = Faults.NONE;
  private final java.util.concurrent.atomic.LongAdder appended = new java.util.concurrent.atomic.LongAdder();
  private volatile boolean closed;

  private WriteAheadLog(Path dir, Held lock, Held vaultLock) {
    this.dir = dir;
    this.lock = lock;
    this.vaultLock = vaultLock;
  }

  /**
   * Opens (creating) the log folder of a vault and takes its lock.
   *
   * @throws VaultInUseException when another process (or another vault object here) holds it
   */
  static WriteAheadLog open(Path vaultRoot) throws IOException {
    return open(vaultRoot, null);
  }

  /**
   * Opens the log of one process serving the vault. Without a node name it is the vault's only
   * log ({@value #FOLDER}, whose lock one process holds). A cluster node's log is {@value
   * #FOLDER}{@code /}{@value #NODES}{@code /<node>/} under a lock of its own, and every node also
   * holds the vault-level lock shared: a server started without {@code --cluster} (which takes it
   * exclusively) is refused while any node runs, and no node starts beside such a server.
   */
  static WriteAheadLog open(Path vaultRoot, String node) throws IOException {
    Path top = vaultRoot.resolve(FOLDER);
    Files.createDirectories(top);
    if (node == null) {
      Held held = lock(top.resolve(LOCK_FILE), false, vaultRoot);
      return new WriteAheadLog(top, held, null);
    }
    if (!segmentFiles(top).isEmpty()) {
      throw new VaultInUseException("the vault " + vaultRoot + " has write-ahead log records of a server that ran"
          + " without --cluster and stopped before writing them into its files: start it once without --cluster"
          + " (it replays them and stops cleanly), then start the cluster");
    }
    Held shared = lock(top.resolve(LOCK_FILE), true, vaultRoot);
    try {
      Path dir = top.resolve(NODES).resolve(node);
      Held own = lockNodeLog(dir, vaultRoot);
      try {
        setAsideForTakeOver(dir, node);
      } catch (IOException | RuntimeException e) {
        own.release();
        throw e;
      }
      return new WriteAheadLog(dir, own, shared);
    } catch (IOException | RuntimeException e) {
      shared.release();
      throw e;
    }
  }

  /**
   * Takes a node's own log lock. A survivor that is taking over this node's log from its last run
   * holds it for a moment; a node restarted at once waits for that (up to {@link
   * #NODE_LOCK_WAIT}) rather than failing to start.
   */
  private static Held lockNodeLog(Path dir, Path vaultRoot) throws IOException {
    long until = System.nanoTime() + NODE_LOCK_WAIT.toNanos();
    while (true) {
      Files.createDirectories(dir);
      try {
        return lock(dir.resolve(LOCK_FILE), false, vaultRoot);
      } catch (VaultInUseException | java.nio.file.NoSuchFileException e) {
        if (System.nanoTime() > until) {
          throw e instanceof VaultInUseException v ? v : new VaultInUseException(e.getMessage());
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("waiting for the node's log lock");
      }
    }
  }

  static final java.time.Duration NODE_LOCK_WAIT = java.time.Duration.ofSeconds(30);

  /**
   * Moves what a node's log holds from its last run into a folder of its own that no process
   * locks, for the cluster to take over like a dead node's log: those documents may be owned by
   * another node now, and only the owner may add revisions to a document. The node then starts
   * with an empty log.
   */
  private static void setAsideForTakeOver(Path dir, String node) throws IOException {
    List<Path> segments = segmentFiles(dir);
    if (segments.isEmpty()) {
      return;
    }
    Path aside = dir.resolveSibling(node + "~" + System.currentTimeMillis());
    Files.createDirectories(aside);
    for (Path seg : segments) {
      Files.move(seg, aside.resolve(seg.getFileName()), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    DurableFiles.syncFolder(aside);
    DurableFiles.syncFolder(dir);
    LOG.info("write-ahead log: {} segments of this node's last run moved to {}, for the cluster to hand their"
        + " revisions to each document's owner", segments.size(), aside.getFileName());
  }

  /** A lock on a file, with the channel that holds it. */
  record Held(FileChannel channel, FileLock lock) {
    void release() {
      try {
        lock.release();
      } catch (IOException e) {
        LOG.debug("releasing a log lock: {}", e.toString());
      }
      try {
        channel.close();
      } catch (IOException e) {
        LOG.debug("closing a log lock: {}", e.toString());
      }
    }
  }

  /**
   * Takes a lock file's lock (shared or exclusive) without waiting; an exclusive holder writes
   * its pid into the file for the message another process shows.
   */
  static Held lock(Path lockFile, boolean shared, Path vaultRoot) throws IOException {
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock(0L, Long.MAX_VALUE, shared);
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      String holder = "";
      try {
        holder = new String(Files.readAllBytes(lockFile), StandardCharsets.UTF_8).trim();
      } catch (IOException ignored) {
        // the holder's pid is only for the message
      }
      ch.close();
      throw new VaultInUseException(
          "the vault " + vaultRoot + " is being served by another gram-mcp process"
              + (holder.isEmpty() ? "" : " (pid " + holder + ")"));
    }
    Held held = new Held(ch, lock);
    if (!shared) {
      byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
      try {
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(pid), 0);
      } catch (IOException e) {
        held.release(); // a full or failing disk: the next start must not find it held by us
        throw e;
      }
    }
    return held;
  }

  Path dir() {
    return dir;
  }

  /** The segment files present now, oldest first. */
  List<Path> segmentFiles() throws IOException {
    return segmentFiles(dir);
  }

  static List<Path> segmentFiles(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (var s = Files.newDirectoryStream(dir, "*" + SEGMENT_SUFFIX)) {
      for (Path p : s) {
        out.add(p);
      }
    }
    out.sort(null); // fixed-width hex names: name order is sequence order
    return out;
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
    DurableFiles.syncFolderNames(vaultRoot.toAbsolutePath().getParent(), dir);
  }

  /** Continues numbering after what recovery found on disk; call before the first append. */
  void continueAfter(long seq) {
    synchronized (appendLock) {
      lastSeq = Math.max(lastSeq, seq);
    }
    synchronized (syncLock) {
      syncedThrough = Math.max(syncedThrough, seq);
    }
  }

  void injectFaults(Faults f) {
    faults = f == null ? Faults.NONE : f;
  }

  /**
   * Appends a revision record; returns its sequence number. Nothing is durable yet: call {@link
   * #awaitDurable}. A failed write leaves no partial frame behind when the file can be cut back;
   * otherwise the next append starts a new segment and the torn frame stays at the old one's end,
   * where recovery discards it.
   */
  long append(String path, byte[] payload) throws IOException {
    synchronized (appendLock) {
      if (closed) {
        throw new IOException("the write-ahead log is closed");
      }
      faults.beforeWrite(path);
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

  /**
   * Marks a document as owing a checkpoint although nothing of it was appended: an edit by another
   * program that became a revision, which only the file can hold.
   */
  void markDirty(String path) {
    synchronized (appendLock) {
      dirty.add(path);
    }
  }

  /**
   * Cancels a durable record that must not be replayed (a cluster node found, after logging it,
   * that another node had already committed that revision), and waits until the cancellation is
   * durable too.
   */
  void voidRecord(long seq) throws IOException {
    long v;
    synchronized (appendLock) {
      if (closed) {
        throw new IOException("the write-ahead log is closed");
      }
      v = writeFrame(null, LogRecord.voidPayload(seq, seq));
    }
    awaitDurable(v);
  }

  // guarded by appendLock
  private long writeFrame(String path, byte[] payload) throws IOException {
    if (payload.length > MAX_PAYLOAD) {
      throw new IOException("a log record of " + payload.length + " bytes is over the limit of " + MAX_PAYLOAD);
    }
    if (current == null) {
      current = newSegment(lastSeq + 1);
    }
    long seq = lastSeq + 1;
    ByteBuffer frame = frame(seq, payload);
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

  static ByteBuffer frame(long seq, byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(FRAME_HEADER + payload.length);
    b.putInt(FRAME_MAGIC).putInt(payload.length).putLong(seq).putInt(crc(seq, payload, 0, payload.length)).put(payload);
    b.flip();
    return b;
  }

  static int crc(long seq, byte[] payload, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(ByteBuffer.allocate(8).putLong(0, seq));
    c.update(payload, off, len);
    return (int) c.getValue();
  }

  private Segment newSegment(long firstSeq) throws IOException {
    Path file = dir.resolve(String.format("%016x", firstSeq) + SEGMENT_SUFFIX);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ch.write(ByteBuffer.wrap(SEGMENT_HEADER), 0);
      ch.force(true);
      // The segment's name must survive a crash before anything in it is acknowledged.
      DurableFiles.syncFolder(dir);
    } catch (IOException e) {
      ch.close();
      Files.deleteIfExists(file);
      throw e;
    }
    Segment s = new Segment(file, firstSeq);
    s.channel = ch;
    s.size = SEGMENT_HEADER.length;
    return s;
  }

  // guarded by appendLock
  private void retireCurrent() {
    if (current != null) {
      rotatedUnsynced.add(current);
      current = null;
    }
  }

  /**
   * Waits until record {@code seq} is durable.
   *
   * @throws IOException when the fsync that covered it failed: the record is void (it will not be
   *     replayed once the void record is durable) but may be on disk until then
   */
  void awaitDurable(long seq) throws IOException {
    synchronized (syncLock) {
      while (true) {
        IOException failed = failureCovering(seq);
        if (failed != null) {
          throw failed;
        }
        if (syncedThrough >= seq) {
          return;
        }
        if (!syncing) {
          syncing = true;
          break;
        }
        try {
          syncLock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted waiting for the log's fsync");
        }
      }
    }
    long covers;
    List<Segment> toSync;
    long[] appendedThrough;
    synchronized (appendLock) {
      covers = lastSeq;
      toSync = new ArrayList<>(rotatedUnsynced);
      if (current != null) {
        toSync.add(current);
      }
      appendedThrough = new long[toSync.size()];
      for (int i = 0; i < toSync.size(); i++) {
        appendedThrough[i] = toSync.get(i).lastSeq;
      }
    }
    IOException failure = null;
    try {
      faults.beforeSync();
      for (Segment s : toSync) {
        try {
          s.channel.force(false);
        } catch (java.nio.channels.ClosedChannelException e) {
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
    synchronized (syncLock) {
      from = syncedThrough + 1;
    }
    long to = covers;
    synchronized (appendLock) {
      // The invariant (docs/gram-format.md §14.4): a retired segment leaves the set to sync only
      // when the fsync that just returned began after its last append. Records appended to it
      // while that fsync ran (after covers was read), before the checkpointer retired it, are not
      // covered: it stays, and the next leader syncs it again before acknowledging them.
      for (int i = 0; i < toSync.size(); i++) {
        Segment s = toSync.get(i);
        if (s != current && s.lastSeq == appendedThrough[i]) {
          rotatedUnsynced.remove(s);
          closeQuietly(s);
        }
      }
      if (failure != null) {
        // Everything not yet synced fails with this batch, including records appended while the
        // fsync ran: they sit in the segment being abandoned.
        to = lastSeq;
        if (current != null) {
          Segment dead = current;
          current = null;
          closeQuietly(dead);
          abandoned.add(dead); // deleted like any other once its documents are checkpointed
        }
        for (Segment s : rotatedUnsynced) {
          closeQuietly(s);
        }
        rotatedUnsynced.clear();
        pendingVoids.add(new long[] {from, to});
        LOG.error("fsync of the write-ahead log failed; records {} to {} are void: {}", from, to, failure.toString());
        writeVoidsNow();
      }
    }
    synchronized (syncLock) {
      syncing = false;
      if (failure != null) {
        failures.addLast(new Failure(from, to, failure));
        while (failures.size() > 1000) {
          failures.removeFirst();
        }
      }
      syncedThrough = Math.max(syncedThrough, to);
      syncLock.notifyAll();
      IOException failed = failureCovering(seq);
      if (failed != null) {
        throw failed;
      }
    }
    if (failure == null && covers < seq) {
      awaitDurable(seq); // appended after this leader read lastSeq: cannot happen, but never ack early
    }
  }

  /**
   * Makes the pending void records durable at once, in a new segment, rather than with the next
   * commit: until they are, the abandoned segment may come back from a power cut with a hole
   * where the disk dropped the failed batch, followed by records of it that it kept, which
   * recovery could only read as damage in the middle. When this fails too, they stay pending and
   * open the next segment as before.
   */
  // guarded by appendLock
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
        closeQuietly(current);
        abandoned.add(current);
        current = null;
      }
    }
  }

  // guarded by syncLock
  private IOException failureCovering(long seq) {
    for (Failure f : failures) {
      if (seq >= f.from() && seq <= f.to()) {
        return f.cause();
      }
    }
    return null;
  }

  /**
   * Starts a new segment for later appends and hands the old one, with the documents written
   * since the last rotation, to the checkpointer. Returns a rotation with no segment when nothing
   * was appended since.
   */
  Rotation rotate() {
    synchronized (appendLock) {
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
   * so that they do not come back after a power cut (they would only be replayed as records the
   * files already hold, but a file replaced meanwhile by another program would make them look
   * like revisions to set aside). Returns the segments it had to keep for a later round.
   */
  List<Segment> delete(List<Segment> segments) {
    if (segments.isEmpty()) {
      return List.of();
    }
    List<Segment> oldestFirst = new ArrayList<>(segments);
    oldestFirst.sort(java.util.Comparator.comparingLong(s -> s.firstSeq));
    boolean unlinkedSinceSync = false;
    for (int i = 0; i < oldestFirst.size(); i++) {
      Segment s = oldestFirst.get(i);
      if (s.holdsVoids && unlinkedSinceSync) {
        // Its void records cancel records of the segments just unlinked: those unlinks must be
        // durable first, or a power cut could bring the cancelled records back without it.
        try {
          DurableFiles.syncFolder(dir);
        } catch (IOException e) {
          LOG.warn("could not fsync the log folder; keeping {} for the next round: {}", s, e.toString());
          return oldestFirst.subList(i, oldestFirst.size());
        }
      }
      unlinkedSinceSync = true;
      synchronized (appendLock) {
        if (s == current) {
          throw new IllegalStateException("the current segment cannot be deleted");
        }
        s.deleted = true;
        rotatedUnsynced.remove(s);
        closeQuietly(s);
      }
      try {
        Files.deleteIfExists(s.file);
      } catch (IOException e) {
        LOG.warn("could not delete log segment {}: {}", s.file, e.toString());
      }
    }
    try {
      DurableFiles.syncFolder(dir);
    } catch (IOException e) {
      LOG.warn("could not fsync the log folder after deleting segments: {}", e.toString());
    }
    return List.of();
  }

  /**
   * Keeps revisions that were acknowledged but can no longer join their document (another program
   * replaced or deleted its file before they were checkpointed) in {@code set-aside/}, as history
   * entries a person can read and re-apply. Returns the file written.
   */
  static Path setAside(Path logDir, String path, List<dev.gram.format.Revision> revisions, String why)
      throws IOException {
    Path folder = logDir.resolve("set-aside");
    Files.createDirectories(folder);
    String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
        .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
    Path file = folder.resolve(stamp + "-" + path.replaceAll("[^A-Za-z0-9._-]", "_") + ".revisions");
    StringBuilder sb = new StringBuilder();
    sb.append("# document ").append(path).append('\n').append("# ").append(why).append('\n');
    for (dev.gram.format.Revision r : revisions) {
      sb.append('\n').append(dev.gram.format.HistoryCodec.fileEntry(r));
    }
    new DurableFiles().replace(logDir, file, sb.toString().getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /** Revision records appended since this process opened the log. */
  long appended() {
    return appended.sum();
  }

  @Override
  public void close() {
    synchronized (appendLock) {
      closed = true;
      if (current != null) {
        try {
          current.channel.force(false);
        } catch (IOException e) {
          LOG.warn("final fsync of {} failed: {}", current, e.toString());
        }
        closeQuietly(current);
      }
      for (Segment s : rotatedUnsynced) {
        closeQuietly(s);
      }
    }
    lock.release();
    if (vaultLock != null) {
      vaultLock.release();
    }
  }

  private static void closeQuietly(Segment s) {
    FileChannel ch = s.channel;
    if (ch != null && ch.isOpen()) {
      try {
        ch.close();
      } catch (IOException e) {
        LOG.debug("closing {}: {}", s, e.toString());
      }
    }
  }
}
