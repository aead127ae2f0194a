package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.nio.file.Files;
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

  /**
   * How commits become durable.
   *
   * @param mode {@link LogMode#WRITE}: through the write-ahead log, checkpointed into the files
   *     within {@code checkpointLag} (the server); {@link LogMode#READ_ONLY}: files plus whatever
   *     the log holds, replayed in memory, never written (commands that only read: a write
   *     answers {@code E_STORAGE})
   * @param checkpointLag how long a revision may be in the log only
   */
  public record Durability(LogMode mode, java.time.Duration checkpointLag, String node) {
    public static final Durability DEFAULT = new Durability(LogMode.WRITE, java.time.Duration.ofSeconds(1));
    public static final Durability READ_ONLY = new Durability(LogMode.READ_ONLY, java.time.Duration.ZERO);

    /** The only process serving the vault. */
    public Durability(LogMode mode, java.time.Duration checkpointLag) {
      this(mode, checkpointLag, null);
    }
  }

  /**
   * The other nodes of a cluster serving the same vault, as the store needs them: told of each
   * commit before its receipt is returned, and asked for revisions the shared files do not hold
   * yet. {@link #newerThan} and {@link #advance} run on a document's actor thread and may block,
   * for a bounded time.
   */
  public interface Peers {
    /**
     * Hands a committed revision to every other node; completes once each has it or gave no
     * answer in time, and only then is the receipt returned: a client holding it reads the
     * revision from any node that answered. Must not block: the document's actor holds its
     * mailbox until it completes, without a thread.
     */
    Future<Void> replicate(String path, dev.gram.format.Revision revision);

    /**
     * The revisions after {@code rev} that another node holds (the longest answer of all of
     * them: a node that has just joined may already own the document); empty when none does or
     * none can say.
     */
    List<dev.gram.format.Revision> newerThan(String path, int rev);

    /**
     * Moves the document's head, as the whole cluster knows it, from {@code from} to {@code to};
     * false when another node has already committed a revision after {@code from}. Called after
     * the revision is durable in this node's log and before anyone is told of it, so two nodes
     * that both believe they own a document for a moment (a partition moving) cannot both commit
     * on one base.
     */
    boolean advance(String path, dev.gram.format.Revision from, dev.gram.format.Revision to);
  }

  private volatile Peers peers;

  public enum LogMode {
    WRITE,
    READ_ONLY
  }

  private final Durability durability;
  private volatile WriteAheadLog log;
  private volatile Checkpointer checkpointer;
  private boolean logOpened;
  /** Log records found at start, by document, until the document is loaded and they are replayed. */
  private final Map<String, List<LogRecord.RevisionRecord>> toReplay = new ConcurrentHashMap<>();
  private final Map<String, String> damagedInLog = new ConcurrentHashMap<>();
  private volatile String unattributedDamage;
  private volatile boolean failNextLogSync;
  private final java.util.Set<String> failSyncAfterWriteOf = ConcurrentHashMap.newKeySet();

  public Vault(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads) {
    this(paths, patchEngine, clock, ioThreads, Durability.DEFAULT);
  }

  public Vault(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads, Durability durability) {
    this.durability = durability;
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

  private volatile VaultScan.Pacing scanPacing = VaultScan.Pacing.NONE;

  /**
   * Makes the start-up scan give way to the agents' tool calls: while one is in flight, only
   * {@code lanes} of the scan's lanes go on loading, so a write that waits for the scan still
   * sees it advance. Call before {@link #start()}.
   */
  public void yieldScanTo(dev.gram.async.Foreground foreground, int lanes) {
    scanPacing = new VaultScan.Pacing(foreground, lanes);
  }

  VaultScan.Pacing scanPacing() {
    return scanPacing;
  }

  /**
   * Makes the next commit to this document lose its fsync (fault injection): the log's when
   * there is one, else the folder's after the file is replaced.
   */
  public void injectCommitUnknown(VaultPath document) {
    durable.injectFolderSyncFailure(document.file());
    failSyncAfterWriteOf.add(document.path());
  }

  /** Injects faults into the durable replace of files: checkpoints and creates (tests). */
  void injectFileFaults(DurableFiles.Faults faults) {
    durable.injectFaults(faults);
  }

  /** Injects faults into the write-ahead log (tests). */
  void injectLogFaults(WriteAheadLog.Faults faults) {
    WriteAheadLog l = log;
    if (l != null) {
      l.injectFaults(faults);
    }
  }

  WriteAheadLog log() {
    return log;
  }

  /**
   * Opens the write-ahead log and reads what it holds, before any document is loaded; {@link
   * #start} calls it when the server has not. Throws when another process serves this vault.
   */
  public synchronized void openLog() throws IOException {
    if (logOpened) {
      return;
    }
    Path root = paths.vaultRoot();
    LogReader.Scan scan = null;
    switch (durability.mode()) {
      case READ_ONLY -> {
        Path dir = root.resolve(WriteAheadLog.FOLDER);
        if (Files.isDirectory(dir)) {
          scan = LogReader.read(WriteAheadLog.segmentFiles(dir));
        }
      }
      case WRITE -> {
        Files.createDirectories(root);
        WriteAheadLog opened = WriteAheadLog.open(root, durability.node());
        try {
          scan = LogReader.read(opened.segmentFiles());
        } catch (IOException | RuntimeException e) {
          opened.close();
          throw e;
        }
        opened.continueAfter(scan.lastSeq());
        opened.injectFaults(new WriteAheadLog.Faults() {
          @Override
          public void beforeWrite(String path) {
            if (failSyncAfterWriteOf.remove(path)) {
              failNextLogSync = true;
            }
          }

          @Override
          public void beforeSync() throws IOException {
            if (failNextLogSync) {
              failNextLogSync = false;
              throw new IOException("injected fsync failure");
            }
          }
        });
        log = opened;
        java.util.Set<String> owed = new java.util.HashSet<>(scan.byDocument().keySet());
        owed.addAll(scan.damagedDocuments().keySet());
        checkpointer = new Checkpointer(opened, this::checkpoint, durability.checkpointLag());
        checkpointer.start(scan.segments(), owed);
      }
    }
    logOpened = true;
    if (scan != null) {
      toReplay.putAll(scan.byDocument());
      damagedInLog.putAll(scan.damagedDocuments());
      unattributedDamage = scan.unattributedDamage();
      if (scan.records() > 0) {
        LOG.info("write-ahead log: {} records for {} documents not yet known to be in their files; replaying"
            + " them as each document loads", scan.records(), scan.byDocument().size());
      }
    }
  }

  /**
   * The log's records for a document just read from its file, applied; null when the log holds
   * none. Called once per document, by its actor, before the document serves anything.
   */
  Replay.Outcome replayLog(String path, DocSnapshot disk) {
    List<LogRecord.RevisionRecord> records = toReplay.remove(path);
    String damage = damagedInLog.remove(path);
    if (records == null && damage == null) {
      return null;
    }
    Replay.Outcome o =
        Replay.apply(disk, records == null ? List.of() : records, damage, unattributedDamage);
    if (!o.setAside().isEmpty()) {
      setAside(path, o.setAside(),
          disk == null
              ? "the log holds revisions of a document whose file is gone"
              : "the log holds revisions that do not continue the file's history (the file was replaced)");
    }
    if (o.applied() > 0) {
      LOG.info("{}: replayed {} revisions from the write-ahead log (now at revision {})", path, o.applied(),
          o.snapshot().rev());
    }
    if (o.snapshot() != null && o.snapshot().failure() != null && disk != null && disk.failure() == null) {
      LOG.error("{} is closed to writes: {}", path, o.snapshot().failure());
    }
    return o;
  }

  /** Keeps acknowledged revisions that can no longer join their document; never drops them. */
  void setAside(String path, List<dev.gram.format.Revision> revisions, String why) {
    if (revisions.isEmpty()) {
      return;
    }
    WriteAheadLog l = log;
    Path dir = l != null ? l.dir() : paths.vaultRoot().resolve(WriteAheadLog.FOLDER);
    if (durability.mode() != LogMode.WRITE) {
      LOG.warn("{}: {} revisions from the log would be set aside: {}", path, revisions.size(), why);
      return;
    }
    try {
      Path file = WriteAheadLog.setAside(dir, path, revisions, why);
      LOG.warn("{}: revisions {} to {} were set aside in {}: {}", path, revisions.get(0).rev(),
          revisions.get(revisions.size() - 1).rev(), file, why);
    } catch (IOException e) {
      LOG.error("{}: could not set aside revisions {} to {} ({}); they stay in the log: {}", path,
          revisions.get(0).rev(), revisions.get(revisions.size() - 1).rev(), e.toString(), why);
    }
  }

  /** Checkpoints one document through its actor (the checkpointer's target). */
  Future<Boolean> checkpoint(String path) {
    VaultPath p;
    try {
      p = paths.document(path);
    } catch (GramException e) {
      LOG.warn("log records for {} stay in the log: the path does not resolve ({})", path, e.getMessage());
      return Future.succeededFuture(false);
    }
    return actor(p).checkpoint();
  }

  /** Runs a checkpoint round now and waits for it (tests, benchmarks, shutdown). */
  public void checkpointNow() {
    Checkpointer c = checkpointer;
    if (c != null) {
      c.flush();
    }
  }

  private final java.util.concurrent.atomic.LongAdder commitCpuNanos = new java.util.concurrent.atomic.LongAdder();
  private final java.util.concurrent.atomic.LongAdder writesHandled = new java.util.concurrent.atomic.LongAdder();

  void commitCpu(long nanos) {
    commitCpuNanos.add(Math.max(0, nanos));
    writesHandled.increment();
  }

  /** CPU time the write actors spent on writes (commits, conflicts, refusals), in seconds. */
  public double writeCpuSeconds() {
    return commitCpuNanos.sum() / 1e9;
  }

  /** Writes the actors handled, whatever their outcome. */
  public long writesHandled() {
    return writesHandled.sum();
  }

  /** Records appended to the write-ahead log since start; 0 without a log. */
  public long logRecords() {
    WriteAheadLog l = log;
    return l == null ? 0 : l.appended();
  }

  /** Documents whose revisions are only in the log (for /metrics and tests). */
  public int checkpointsOwed() {
    int n = 0;
    for (DocumentActor a : actors.values()) {
      if (a.owesCheckpoint()) {
        n++;
      }
    }
    return n;
  }

  // ------------------------------------------------------------------ cluster

  /** Joins a cluster: commits are replicated to, and loads completed from, the other nodes. */
  public void setPeers(Peers peers) {
    this.peers = peers;
  }

  Peers peers() {
    return peers;
  }

  /**
   * Applies a revision another node committed to this node's copy of the document (a follower's
   * side of {@link Peers#replicate}); a revision already held is skipped.
   */
  public Future<Void> follow(String path, dev.gram.format.Revision revision) {
    return actor(paths.document(path)).follow(List.of(revision), false);
  }

  /**
   * Adds the revisions a dead node's log holds for a document this node now owns (those it lacks)
   * and writes the document's file, so that the dead node's log can be deleted.
   */
  public Future<Void> adopt(String path, List<dev.gram.format.Revision> revisions) {
    return actor(paths.document(path)).follow(revisions, true);
  }

  /**
   * The revisions of a document after {@code rev} in this node's copy, without waiting: what
   * another node loading the document asks for ({@link Peers#newerThan}).
   */
  public List<dev.gram.format.Revision> revisionsAfter(String path, int rev) {
    DocumentActor a = actors.get(path);
    // Not loaded here: this node's copy would be the file the asking node read too (a cluster
    // node's own log is handed to the owners at start, never replayed into its copies).
    DocSnapshot s = a == null || !a.loaded() ? null : a.current();
    if (s == null || s.history() == null || s.rev() <= rev) {
      return List.of();
    }
    List<dev.gram.format.Revision> all = s.history().revisions();
    return List.copyOf(all.subList(Math.max(0, rev + 1), all.size()));
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * Starts the background scan of the vault and its mounts and the file watcher; the returned
   * future completes when every document has been loaded once.
   */
  public Future<Void> start() {
    try {
      openLog();
    } catch (IOException e) {
      LOG.error("cannot open the write-ahead log: {}", e.getMessage());
      scanned.tryFail(e);
      return scanned.future();
    }
    ioPool.execute(() -> VaultScan.run(this, scanned));
    return scanned.future();
  }

  /**
   * Replays what the log holds for documents the scan did not find (their files are gone), so
   * that those revisions are set aside before the first write, never silently dropped.
   */
  Future<Void> replayLeftovers() {
    List<Future<DocSnapshot>> loads = new ArrayList<>();
    for (String path : new ArrayList<>(toReplay.keySet())) {
      try {
        loads.add(actor(paths.document(path)).snapshot());
      } catch (GramException e) {
        LOG.warn("log records for {} stay in the log: the path does not resolve ({})", path, e.getMessage());
      }
    }
    return Future.join(loads).mapEmpty();
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
    // Every mailbox has run what was queued before the drain; the last checkpoint round then
    // writes what is only in the log, so a clean stop leaves files that hold everything.
    return Future.join(drains).transform(ar -> {
      Promise<Void> done = Promise.promise();
      Thread t = new Thread(() -> {
        Checkpointer c = checkpointer;
        if (c != null) {
          c.close();
        }
        WriteAheadLog l = log;
        if (l != null) {
          l.close();
        }
        ioPool.shutdown();
        done.complete();
      }, "gram-vault-close");
      t.setDaemon(true);
      t.start();
      return done.future();
    });
  }

  /**
   * Stops like a killed process: no last checkpoint, the log's lock released, whatever is only in
   * the log left there for the next start to replay (tests of recovery in one JVM).
   */
  void abandon() {
    VaultWatcher w = watcher;
    if (w != null) {
      w.close();
    }
    Checkpointer c = checkpointer;
    if (c != null) {
      c.abandon();
    }
    WriteAheadLog l = log;
    if (l != null) {
      l.close();
    }
    ioPool.shutdownNow();
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
    return scanned.future().compose(v -> {
      if (log == null) {
        return Future.failedFuture(
            new GramException(ErrorCode.E_STORAGE, "Storage commit failed: this vault is open read-only here"));
      }
      return actor(command.path()).submit(command);
    });
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
