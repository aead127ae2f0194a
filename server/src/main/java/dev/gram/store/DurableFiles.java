package dev.gram.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable replace: write the new content beside the old file, fsync it, rename it over the
 * old one, fsync the folder. Only after the folder fsync is the new content known to survive a
 * crash; a failure after the rename is {@link PublishedNotDurable}, because readers may already
 * see the new file although a crash could still undo it.
 *
 * <p>Temporary files are named {@code .<name>.tmp-<random>}: hidden, so they are never listed or
 * read as documents, and removed by {@link #cleanTemporaryFiles} at start.
 */
public final class DurableFiles {
  private static final Logger LOG = LoggerFactory.getLogger(DurableFiles.class);
  private static final String TMP_MARK = ".tmp-";

  /** Paths whose next folder fsync must fail, to test the COMMIT_UNKNOWN path end to end. */
  private final Set<Path> failNextFolderSync = ConcurrentHashMap.newKeySet();

  /** One group commit of folder fsyncs per folder that documents are written in. */
  private final Map<Path, FolderSync> folderSyncs = new ConcurrentHashMap<>();

  /**
   * Folders whose own names, and those of every folder above them up to their root, this process
   * has made durable. A folder another program (or an earlier run that crashed) created may exist
   * only in the page cache; the first file this process publishes into it syncs the folders above
   * it once, so that an acknowledged file can never vanish with a folder a power cut forgot.
   */
  private final Set<Path> durableFolders = ConcurrentHashMap.newKeySet();

  /** Fault injection for tests: called before a replace or create writes, and before it renames. */
  interface Faults {
    Faults NONE = new Faults() {};

    default void beforeWrite(Path target) throws IOException {}

    default void beforeRename(Path target) throws IOException {}
  }

  private volatile Faults faults = Faults.NONE;

  void injectFaults(Faults f) {
    faults = f == null ? Faults.NONE : f;
  }

  /** The rename happened but the folder fsync did not succeed. */
  public static final class PublishedNotDurable extends IOException {
    public PublishedNotDurable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Makes the next folder fsync after replacing {@code file} fail once (fault injection). */
  public void injectFolderSyncFailure(Path file) {
    failNextFolderSync.add(file.toAbsolutePath().normalize());
  }

  /**
   * Replaces {@code target} (which may or may not exist) with {@code content}, durably: for the
   * server's own files, whose folders no agent or other program names.
   */
  public void replace(Path target, byte[] content) throws IOException {
    publish(null, target, content, false);
  }

  /**
   * Replaces {@code target}, a document under the trusted folder {@code root}, durably, through
   * folders opened without following links ({@link SafeFolder}).
   */
  public void replace(Path root, Path target, byte[] content) throws IOException {
    publish(root, target, content, false);
  }

  /**
   * Creates {@code target} under the trusted folder {@code root} with {@code content}, durably,
   * only if nothing is there: the new file is hard-linked into place, which fails instead of
   * overwriting when another writer got there first ({@link
   * java.nio.file.FileAlreadyExistsException}).
   */
  public void create(Path root, Path target, byte[] content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      // New folders: their names become durable with the file (publish syncs the folders above).
      forgetDurable(dir, root);
    }
    publish(root, target, content, true);
  }

  private void publish(Path root, Path target, byte[] content, boolean createOnly) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      forgetDurable(dir, root);
    }
    String name = target.getFileName().toString();
    String tmp = "." + name + TMP_MARK + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    // The temporary file is created, and renamed or linked, in the folder opened without
    // following links: a folder swapped for a link meanwhile cannot take the write elsewhere, and
    // a temporary file is never left where the start-up cleanup would not find it.
    try (SafeFolder folder = root == null ? SafeFolder.byName(dir) : SafeFolder.open(root, dir)) {
      try (FileChannel ch = folder.createNew(tmp)) {
        faults.beforeWrite(target);
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      } catch (IOException e) {
        folder.deleteIfExists(tmp);
        throw e;
      }
      try {
        faults.beforeRename(target);
        if (createOnly) {
          try {
            // By name: if the folder was swapped for a link, the temporary file is not found
            // there and nothing is created outside.
            Files.createLink(target, dir.resolve(tmp));
            folder.deleteIfExists(tmp);
          } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
            if (e instanceof java.nio.file.FileAlreadyExistsException exists) {
              throw exists;
            }
            // No hard links here (some network and FAT file systems), or the name no longer
            // leads to our folder: check, then rename within the opened folder. The document's
            // actor is the only writer of this path in this process.
            if (folder.exists(name)) {
              throw new java.nio.file.FileAlreadyExistsException(target.toString());
            }
            folder.rename(tmp, name);
          }
        } else {
          try {
            folder.rename(tmp, name);
          } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename atomically: " + e.getMessage(), e);
          }
        }
      } catch (IOException e) {
        folder.deleteIfExists(tmp);
        throw e;
      }
    }
    try {
      if (failNextFolderSync.remove(target.toAbsolutePath().normalize())) {
        throw new IOException("injected folder fsync failure");
      }
      folderSyncs.computeIfAbsent(dir, FolderSync::new).await();
      if (root != null) {
        syncFoldersAbove(root.toAbsolutePath(), dir);
      }
    } catch (IOException e) {
      throw new PublishedNotDurable(e.getMessage(), e);
    }
  }

  /**
   * Makes a file this process did not write durable, as it is now: its content, its name in its
   * folder, and the folders above up to {@code root}. For a file another program wrote (it may
   * never have synced it) before a revision is logged on top of it.
   */
  public void syncExisting(Path root, Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ch.force(true);
    }
    Path dir = file.toAbsolutePath().getParent();
    folderSyncs.computeIfAbsent(dir, FolderSync::new).await();
    syncFoldersAbove(root.toAbsolutePath(), dir);
  }

  /** Makes the names of {@code dir} and the folders above it, up to {@code root}, durable once. */
  private void syncFoldersAbove(Path root, Path dir) throws IOException {
    if (durableFolders.contains(dir) || !dir.startsWith(root)) {
      return;
    }
    List<Path> synced = new java.util.ArrayList<>();
    for (Path p = dir; !p.equals(root) && !durableFolders.contains(p); p = p.getParent()) {
      syncFolder(p.getParent());
      synced.add(p);
    }
    durableFolders.addAll(synced);
  }

  private void forgetDurable(Path dir, Path root) {
    for (Path p = dir; p != null && (root == null || !p.equals(root.toAbsolutePath())); p = p.getParent()) {
      durableFolders.remove(p);
    }
  }

  /**
   * Syncs {@code dir} and each folder above it up to and including {@code top}: afterwards the
   * names of everything in {@code dir}, and the path from {@code top} down to it, survive a power
   * cut. For the server's own folders (the log's), at start.
   */
  static void syncFolderNames(Path top, Path dir) throws IOException {
    for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
      try {
        syncFolder(p);
      } catch (IOException e) {
        if (!p.startsWith(top) || p.equals(top)) {
          // Above the vault: a folder the server may not be allowed to open. Its name is the
          // operator's (it held the vault before this start), not ours to vouch for.
          LOG.debug("could not fsync {}: {}", p, e.toString());
          return;
        }
        throw e;
      }
      if (p.equals(top)) {
        return;
      }
    }
  }

  /**
   * Group commit of one folder's fsync. Writers that renamed into the same folder at about the
   * same time need only one fsync between them: a writer takes a ticket after its rename and is
   * durable once an fsync that <em>started</em> after its ticket has succeeded. While one fsync
   * runs, later writers wait, and the next fsync, run by one of them, covers every ticket taken
   * before it started. A failed fsync covers nobody: its leader reports the failure and each
   * waiter tries again itself. Under load a commit then pays about one fsync of its own, not two;
   * alone, a writer pays exactly what it did before.
   */
  private static final class FolderSync {
    private final Path dir;
    private long ticketsTaken;
    /** Every ticket up to this one is durable. */
    private long durableThrough;
    private boolean running;

    FolderSync(Path dir) {
      this.dir = dir;
    }

    void await() throws IOException {
      long covers;
      synchronized (this) {
        long ticket = ++ticketsTaken;
        while (running) {
          try {
            wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for the folder fsync");
          }
          if (durableThrough >= ticket) {
            return;
          }
        }
        running = true;
        covers = ticketsTaken;
      }
      boolean ok = false;
      try {
        syncFolder(dir);
        ok = true;
      } finally {
        synchronized (this) {
          running = false;
          if (ok) {
            durableThrough = Math.max(durableThrough, covers);
          }
          notifyAll();
        }
      }
    }
  }

  public static void syncFolder(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  public static boolean isTemporary(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith(".") && name.contains(TMP_MARK);
  }

  /** Removes temporary files a crash left behind in one folder. */
  public static int cleanTemporaryFiles(Path dir) {
    int removed = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        if (isTemporary(p) && Files.isRegularFile(p)) {
          Files.deleteIfExists(p);
          removed++;
        }
      }
    } catch (IOException e) {
      LOG.warn("could not clean temporary files in {}: {}", dir, e.getMessage());
    }
    return removed;
  }
}
