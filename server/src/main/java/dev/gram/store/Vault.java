package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The document store: a vault folder and its mounts, one {@link DocumentActor} per document, and
 * the request ids of every write. All file I/O runs on the vault's I/O pool, never on an event
 * loop.
 *
 * <p>At start the vault scans its folders in the background; reads load a document on first use,
 * and writes wait for the scan because a request_id must be checked against every document.
 */
public final class Vault implements DocumentWriter {
  private static final Logger LOG = LoggerFactory.getLogger(Vault.class);

  private final PathResolver paths;
  private final ExecutorService ioPool;
  private final DurableFiles durable = new DurableFiles();
  private final PatchEngine patchEngine;
  private final Clock clock;
  private final RequestIndex requests = new RequestIndex();
  private final Map<String, DocumentActor> actors = new ConcurrentHashMap<>();
  private final Map<String, String> pathByDocumentId = new ConcurrentHashMap<>();
  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
  private final Promise<Void> scanned = Promise.promise();
  /** The clock reading each commit in flight started from: its recorded time is at least that. */
  private final Map<Long, Instant> commitsInFlight = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong commitIds = new java.util.concurrent.atomic.AtomicLong();
  private final PatchEngine.Context patchContext = docId -> pathByDocumentId.containsKey(docId);
  private volatile VaultWatcher watcher;

  public Vault(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads) {
    this.paths = paths;
    this.patchEngine = patchEngine;
    this.clock = clock;
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf =
        r -> {
          Thread t = new Thread(r, "gram-io-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    this.ioPool = Executors.newFixedThreadPool(ioThreads, tf);
  }

  // ------------------------------------------------------------------ wiring

  public PathResolver paths() {
    return paths;
  }

  ExecutorService ioPool() {
    return ioPool;
  }

  DurableFiles durable() {
    return durable;
  }

  PatchEngine patchEngine() {
    return patchEngine;
  }

  PatchEngine.Context patchContext() {
    return patchContext;
  }

  RequestIndex requests() {
    return requests;
  }

  public Clock clock() {
    return clock;
  }

  /** The pool file work runs on; tools that read files may use it too. */
  public java.util.concurrent.Executor io() {
    return ioPool;
  }

  public void addListener(CommitListener listener) {
    listeners.add(listener);
  }

  /** Makes the next commit to this document lose its folder fsync (fault injection). */
  public void injectCommitUnknown(VaultPath document) {
    durable.injectFolderSyncFailure(document.file());
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * Starts the background scan of the vault and its mounts and the file watcher; the returned
   * future completes when every document has been loaded once.
   */
  public Future<Void> start() {
    ioPool.execute(this::scan);
    return scanned.future();
  }

  public Future<Void> scanned() {
    return scanned.future();
  }

  public boolean scanComplete() {
    return scanned.future().isComplete();
  }

  private void scan() {
    try {
      Files.createDirectories(paths.vaultRoot());
      List<Path> roots = new ArrayList<>();
      List<VaultPath.MountPoint> owners = new ArrayList<>();
      roots.add(paths.vaultRoot());
      owners.add(null);
      for (VaultPath.MountPoint m : paths.mounts()) {
        roots.add(m.root());
        owners.add(m);
      }
      List<Path> dirs = new ArrayList<>();
      List<VaultPath> found = new ArrayList<>();
      for (int i = 0; i < roots.size(); i++) {
        VaultPath.MountPoint mount = owners.get(i);
        Path root = roots.get(i);
        if (!Files.isDirectory(root)) {
          LOG.warn("mount {} has no folder {}", mount == null ? "vault" : mount.id(), root);
          continue;
        }
        for (Path file : findDocuments(root, mount == null, dirs)) {
          String path = paths.pathOf(mount, file);
          VaultPath vp;
          try {
            vp = paths.document(path);
          } catch (GramException e) {
            continue;
          }
          found.add(vp);
        }
      }
      // The total is known before loading starts: one honest line instead of a count that grows.
      LOG.info("vault {}: loading {} documents", paths.vaultRoot(), found.size());
      watcher = VaultWatcher.start(this, dirs);
      Promise<Void> loaded = Promise.promise();
      AtomicInteger next = new AtomicInteger();
      AtomicInteger lanesLeft = new AtomicInteger(SCAN_LANES);
      for (int i = 0; i < SCAN_LANES; i++) {
        loadLane(found, next, () -> {
          if (lanesLeft.decrementAndGet() == 0) {
            loaded.complete();
          }
        });
      }
      loaded.future()
          .onComplete(
              ar -> {
                LOG.info("vault {}: {} documents", paths.vaultRoot(), documents().size());
                scanned.tryComplete();
              });
    } catch (IOException | RuntimeException e) {
      LOG.error("vault scan failed: {}", e.toString());
      scanned.tryFail(e);
    }
  }

  /**
   * How many documents the start-up scan loads at once: one per core. Loading is CPU work
   * (parse, verify the chain); handing ten thousand loads to the whole I/O pool at once made
   * sixteen threads fight two cores, and the transports, which answer while the vault loads,
   * waited their turn behind them.
   */
  private static final int SCAN_LANES = Math.max(1, Runtime.getRuntime().availableProcessors());

  /** Loads the documents of {@code docs} from {@code next} on, one after another, then runs {@code done}. */
  private void loadLane(List<VaultPath> docs, AtomicInteger next, Runnable done) {
    while (true) {
      int i = next.getAndIncrement();
      if (i >= docs.size()) {
        done.run();
        return;
      }
      Future<DocSnapshot> load = actor(docs.get(i)).snapshot();
      // A document a reader already loaded is complete at once: the loop goes on, no recursion.
      if (!load.isComplete()) {
        load.onComplete(ar -> loadLane(docs, next, done));
        return;
      }
    }
  }

  /** The {@code .gram} files under a root; removes temporary files left by a crash. */
  private static List<Path> findDocuments(Path root, boolean isVaultRoot, List<Path> dirs) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            if (!dir.equals(root)
                && (name.startsWith(".") || (isVaultRoot && dir.getParent().equals(root) && name.startsWith("@")))) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            dirs.add(dir);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (DurableFiles.isTemporary(file)) {
              try {
                Files.deleteIfExists(file);
                LOG.info("removed leftover temporary file {}", file);
              } catch (IOException e) {
                LOG.warn("could not remove {}: {}", file, e.getMessage());
              }
            } else if (attrs.isRegularFile()
                && file.getFileName().toString().endsWith(".gram")
                && !file.getFileName().toString().startsWith(".")) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException exc) {
            LOG.warn("cannot read {}: {}", file, exc.getMessage());
            return FileVisitResult.CONTINUE;
          }
        });
    return found;
  }

  /** Stops the watcher, lets every queued write finish, then stops the I/O pool. */
  public Future<Void> close() {
    VaultWatcher w = watcher;
    if (w != null) {
      w.close();
    }
    List<Future<DocSnapshot>> drains = new ArrayList<>();
    for (DocumentActor a : actors.values()) {
      drains.add(a.refreshNoop());
    }
    // Every mailbox has run what was queued before the drain; nothing is left to wait for.
    return Future.join(drains).transform(ar -> {
      ioPool.shutdown();
      return Future.<Void>succeededFuture();
    });
  }

  // ------------------------------------------------------------------ documents

  DocumentActor actor(VaultPath p) {
    return actors.computeIfAbsent(p.path(), k -> new DocumentActor(this, p));
  }

  /** The document's snapshot, loading it if needed; {@code E_ARGUMENT} when there is none. */
  public Future<DocSnapshot> read(VaultPath p) {
    DocumentActor a = actors.get(p.path());
    if (a != null && a.loaded()) {
      DocSnapshot s = a.current();
      return s == null ? Future.failedFuture(notFound(p)) : Future.succeededFuture(s);
    }
    return actor(p)
        .snapshot()
        .compose(s -> s == null ? Future.failedFuture(notFound(p)) : Future.succeededFuture(s));
  }

  /** The snapshot if the document is loaded and present, else {@code null}; never waits. */
  public DocSnapshot peek(String path) {
    DocumentActor a = actors.get(path);
    return a == null ? null : a.current();
  }

  public static GramException notFound(VaultPath p) {
    return new GramException(ErrorCode.E_ARGUMENT, "Document not found: " + p.path());
  }

  /** Every loaded document, by path. */
  public List<DocSnapshot> documents() {
    List<DocSnapshot> out = new ArrayList<>();
    for (DocumentActor a : actors.values()) {
      DocSnapshot s = a.current();
      if (s != null) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparing(DocSnapshot::path));
    return out;
  }

  /** Documents under a folder path ({@code ""} is the whole vault without mounts). */
  public List<DocSnapshot> documentsUnder(VaultPath folder) {
    String prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
    List<DocSnapshot> out = new ArrayList<>();
    for (DocSnapshot s : documents()) {
      boolean inMount = s.path().startsWith(PathResolver.MOUNTS + "/");
      if (prefix.isEmpty() ? !inMount : s.path().startsWith(prefix)) {
        out.add(s);
      }
    }
    return out;
  }

  /** The path of the document whose owner has this id, or {@code null}. */
  public String pathOfDocumentId(String documentId) {
    return pathByDocumentId.get(documentId);
  }

  boolean documentIdTaken(String documentId, String path) {
    String p = pathByDocumentId.get(documentId);
    return p != null && !p.equals(path);
  }

  /** Re-reads a document that another program may have changed. */
  public Future<DocSnapshot> refresh(VaultPath p) {
    return actor(p).refresh();
  }

  @Override
  public Future<CommitReceipt> submit(WriteCommand command) {
    return scanned.future().compose(v -> actor(command.path()).submit(command));
  }

  /**
   * Registers a commit about to take its recorded time, which will be at least {@code now}.
   * Returns the id to pass to {@link #commitEnded} once it is published or has failed.
   */
  long commitStarted(Instant now) {
    long id = commitIds.incrementAndGet();
    commitsInFlight.put(id, now);
    return id;
  }

  void commitEnded(long id) {
    commitsInFlight.remove(id);
  }

  /**
   * The latest time through which every revision is visible to readers: revisions recorded at
   * or before it are all published, and any revision published later is recorded after it. A
   * commit takes its recorded time before its file is durable and its snapshot published, so
   * another document's later revision can become visible first; a "since" cursor handed out
   * beyond this time could skip the slower one.
   */
  public Instant visibleThrough() {
    Instant limit = dev.gram.format.Times.truncate(clock.instant()).minusMillis(1);
    for (Instant started : commitsInFlight.values()) {
      Instant before = started.minusMillis(1);
      if (before.isBefore(limit)) {
        limit = before;
      }
    }
    return limit;
  }

  /** Writes queued or running across all documents. */
  public int writeQueueDepth() {
    int d = 0;
    for (DocumentActor a : actors.values()) {
      d += a.queueDepth();
    }
    return d;
  }

  /** Called by an actor, on its mailbox, for each new snapshot. */
  void published(String path, DocSnapshot snapshot, boolean fromDisk) {
    pathByDocumentId.values().remove(path);
    if (snapshot != null && snapshot.state() != null) {
      pathByDocumentId.putIfAbsent(snapshot.state().id(), path);
    }
    if (fromDisk) {
      requests.indexDocument(path, snapshot == null ? null : snapshot.history());
    }
    for (CommitListener l : listeners) {
      try {
        l.onChange(path, snapshot);
      } catch (RuntimeException e) {
        LOG.error("listener failed for {}", path, e);
      }
    }
  }
}
