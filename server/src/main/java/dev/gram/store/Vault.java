package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.nio.file.Path;
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
 * <p>At start the vault scans its folders in the background ({@link VaultScan}); reads load a
 * document on first use, and writes wait for the scan because a request_id must be checked against
 * every document.
 *
 * <p>Callers above the store see it as a {@link DocumentReader} and a {@link DocumentWriter}; the
 * rest of this class (start, close, listeners, fault injection) is for the server that wires it.
 */
public final class Vault implements DocumentReader, DocumentWriter {
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

  @Override
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

  @Override
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
    ioPool.execute(() -> VaultScan.run(this, scanned));
    return scanned.future();
  }

  /** Starts watching the folders the scan found for edits made by other programs. */
  void watch(List<Path> dirs) {
    watcher = VaultWatcher.start(this, dirs);
  }

  @Override
  public Future<Void> scanned() {
    return scanned.future();
  }

  public boolean scanComplete() {
    return scanned.future().isComplete();
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

  @Override
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

  @Override
  public DocSnapshot peek(String path) {
    DocumentActor a = actors.get(path);
    return a == null ? null : a.current();
  }

  public static GramException notFound(VaultPath p) {
    return new GramException(ErrorCode.E_ARGUMENT, "Document not found: " + p.path());
  }

  @Override
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

  @Override
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

  @Override
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
  @Override
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
