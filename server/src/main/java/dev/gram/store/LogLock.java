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
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which process may append to which log: the lock files of the write-ahead log (docs/gram-format.md
 * §14.1). One process holds a vault's {@code .gram-wal/LOCK} exclusively; cluster nodes hold it
 * shared and each holds its own node log's lock.
 */
final class LogLock {
  private static final Logger LOG = LoggerFactory.getLogger(LogLock.class);

  private LogLock() {}

  /** A log folder this process may append to, with the locks that say so. */
  record Opened(Path dir, Held own, Held vaultShared) {
    void release() {
      own.release();
      if (vaultShared != null) {
        vaultShared.release();
      }
    }
  }

  /**
   * Opens the log of one process serving the vault. Without a node name it is the vault's only
   * log ({@code .gram-wal}, whose lock one process holds). A cluster node's log is {@code
   * .gram-wal/nodes/<node>/} under a lock of its own, and every node also
   * holds the vault-level lock shared: a server started without {@code --cluster} (which takes it
   * exclusively) is refused while any node runs, and no node starts beside such a server.
   */
  static Opened open(Path vaultRoot, String node) throws IOException {
    Path top = vaultRoot.resolve(WriteAheadLog.FOLDER);
    Files.createDirectories(top);
    if (node == null) {
      Held held = lock(top.resolve(WriteAheadLog.LOCK_FILE), false, vaultRoot);
      return new Opened(top, held, null);
    }
    if (!Segment.files(top).isEmpty()) {
      throw new VaultInUseException("the vault " + vaultRoot + " has write-ahead log records of a server that ran"
          + " without --cluster and stopped before writing them into its files: start it once without --cluster"
          + " (it replays them and stops cleanly), then start the cluster");
    }
    Held shared = lock(top.resolve(WriteAheadLog.LOCK_FILE), true, vaultRoot);
    try {
      Path dir = top.resolve(WriteAheadLog.NODES).resolve(node);
      Held own = lockNodeLog(dir, vaultRoot);
      try {
        setAsideForTakeOver(dir, node);
      } catch (IOException | RuntimeException e) {
        own.release();
        throw e;
      }
      return new Opened(dir, own, shared);
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
        return lock(dir.resolve(WriteAheadLog.LOCK_FILE), false, vaultRoot);
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
    List<Path> segments = Segment.files(dir);
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

}
