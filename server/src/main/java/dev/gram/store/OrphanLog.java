package dev.gram.store;

import dev.gram.format.Revision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of a cluster node that is no longer running, claimed by a survivor so that
 * its revisions reach their documents' files. A node's log lock is held for as long as its
 * process lives (a killed process's lock is released by the operating system), so a log whose
 * lock can be taken belongs to nobody.
 *
 * <p>The claimer reads every record, hands each document's revisions to that document's owner
 * (which adds those it lacks and writes the file), and only then {@link #retire}s the folder. A
 * claim that could not finish is {@link #close}d: the log stays, whole, for the next attempt.
 */
public final class OrphanLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanLog.class);

  private final Path dir;
  private final LogLock.Held lock;
  private final Map<String, List<Revision>> byDocument;
  private final Map<String, String> damaged;

  private OrphanLog(Path dir, LogLock.Held lock, Map<String, List<Revision>> byDocument, Map<String, String> damaged) {
    this.dir = dir;
    this.lock = lock;
    this.byDocument = byDocument;
    this.damaged = damaged;
  }

  /**
   * The node log folders of a vault other than {@code ownNode}'s, whether or not they are in use:
   * other nodes' logs, and logs a node set aside at its start ({@code <node>~<time>}, never locked).
   */
  public static List<Path> nodeLogs(Path vaultRoot, String ownNode) throws IOException {
    Path nodes = vaultRoot.resolve(WriteAheadLog.FOLDER).resolve(WriteAheadLog.NODES);
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(nodes)) {
      return out;
    }
    try (var s = Files.newDirectoryStream(nodes)) {
      for (Path p : s) {
        if (Files.isDirectory(p) && !p.getFileName().toString().equals(ownNode)) {
          out.add(p);
        }
      }
    }
    out.sort(null);
    return out;
  }

  /** Claims a node's log if no process holds it; null when one does (that node is alive). */
  public static OrphanLog claim(Path dir) throws IOException {
    LogLock.Held lock;
    try {
      lock = LogLock.lock(dir.resolve(WriteAheadLog.LOCK_FILE), false, dir);
    } catch (VaultInUseException | java.nio.file.NoSuchFileException e) {
      return null; // held by its node, or already taken over and deleted by another survivor
    }
    try {
      LogReader.Scan scan = LogReader.read(WriteAheadLog.segmentFiles(dir));
      Map<String, List<Revision>> docs = new LinkedHashMap<>();
      scan.byDocument().forEach((path, records) -> {
        List<Revision> revs = new ArrayList<>();
        for (LogRecord.RevisionRecord r : records) {
          revs.add(r.revision());
        }
        docs.put(path, revs);
      });
      Map<String, String> damaged = new LinkedHashMap<>(scan.damagedDocuments());
      if (scan.unattributedDamage() != null) {
        damaged.put("", scan.unattributedDamage());
      }
      return new OrphanLog(dir, lock, docs, damaged);
    } catch (IOException | RuntimeException e) {
      lock.release();
      throw e;
    }
  }

  public Path dir() {
    return dir;
  }

  /** Each document's revisions in the log, oldest first, void records applied. */
  public Map<String, List<Revision>> revisionsByDocument() {
    return byDocument;
  }

  /**
   * Documents whose records are damaged in the middle of the log, with why ({@code ""} for
   * damage that names no document): such a log is kept for a person, never retired.
   */
  public Map<String, String> damaged() {
    return damaged;
  }

  /** Deletes the log: every revision in it is now in its document's file. */
  public void retire() throws IOException {
    for (Path seg : WriteAheadLog.segmentFiles(dir)) {
      Files.deleteIfExists(seg);
    }
    // The lock file goes while still held: a second survivor that listed this folder then finds
    // no lock to take, or an empty folder, never the segments half deleted.
    Files.deleteIfExists(dir.resolve(WriteAheadLog.LOCK_FILE));
    lock.release();
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      LOG.debug("{} stays: {}", dir, e.toString());
    }
    DurableFiles.syncFolder(dir.getParent());
  }

  /** Gives up the claim, leaving the log as it was. */
  @Override
  public void close() {
    lock.release();
  }
}
