package dev.gram.store;

import dev.gram.async.Async;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import dev.gram.format.Revision;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The document store, as the server wires it: a vault folder and its mounts, one {@link
 * DocumentActor} per document ({@link DocumentTable}), the write-ahead log and its checkpointer,
 * what the log held at start ({@link Recovery}), and the threads all of that runs on ({@link
 * StoreThreads}). Callers above the store see it as a {@link DocumentReader} and a {@link
 * DocumentWriter}; actors see only their {@link ActorContext}. No file I/O runs on an event loop,
 * and a future this class returns completes on its caller's Vert.x context.
 *
 * <p>At start the vault scans its folders in the background ({@link VaultScan}); reads load a
 * document on first use, and writes wait for the scan because a request_id must be checked against
 * every document. Faults are not injected here: tests run the vault on a simulated disk that fails,
 * or loses power, as told.
 *
 * <p>Why a facade of about 400 lines: it is the store's one public face (readers, writers, the
 * server's lifecycle, the cluster's follow and take-over, metrics); each method delegates to the
 * part that does the work.
 */
public final class Vault implements DocumentReader, DocumentWriter {
  private static final Logger LOG = LoggerFactory.getLogger(Vault.class);

  /**
   * How commits become durable.
   *
   * @param mode {@link LogMode#WRITE}: through the write-ahead log, checkpointed into the files
   *     within {@code checkpointLag} (the server); {@link LogMode#READ_ONLY}: files plus whatever
   *     the log holds, replayed in memory, never written (commands that only read: a write
   *     answers {@code E_STORAGE})
   * @param checkpointLag how long a revision may be in the log only
   * @param node a cluster node's name (its own log), or null for the only process serving the vault
   */
  public record Durability(LogMode mode, Duration checkpointLag, String node) {
    public static final Durability DEFAULT = new Durability(LogMode.WRITE, Duration.ofSeconds(1));
    public static final Durability READ_ONLY = new Durability(LogMode.READ_ONLY, Duration.ZERO);

    /** The only process serving the vault. */
    public Durability(LogMode mode, Duration checkpointLag) {
      this(mode, checkpointLag, null);
    }
  }

  public enum LogMode {
    WRITE,
    READ_ONLY
  }

  private final StoreServices store;
  private final StoreMetrics metrics;
  private final Promise<Void> scanned = Promise.promise();

  private volatile Checkpointer checkpointer;
  private volatile VaultWatcher watcher;
  private boolean logOpened;

  public Vault(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads) {
    this(paths, patchEngine, clock, ioThreads, Durability.DEFAULT);
  }

  public Vault(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads, Durability durability) {
    this.store = new StoreServices(paths, patchEngine, clock, ioThreads, durability);
    this.metrics = new StoreMetrics(store);
  }

  // ------------------------------------------------------------------ wiring

  public void addListener(CommitListener listener) {
    store.listeners.add(listener);
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
   * Opens the write-ahead log and reads what it holds, before any document is loaded; {@link
   * #start} calls it when the server has not. Throws when another process serves this vault.
   */
  public synchronized void openLog() throws IOException {
    if (logOpened) {
      return;
    }
    Path root = store.paths.vaultRoot();
    // Before the log is read: its records, like the documents, are keyed by which file they name.
    boolean writes = store.durability.mode() == LogMode.WRITE;
    if (writes) {
      Files.createDirectories(root);
    }
    store.names.probe(store.paths, writes);
    store.paths.spellDocumentsAs(store.table::spelling);
    switch (store.durability.mode()) {
      case READ_ONLY -> {
        Path dir = root.resolve(WriteAheadLog.FOLDER);
        if (Files.isDirectory(dir)) {
          store.recovery.add(LogReader.read(WriteAheadLog.segmentFiles(dir)));
        }
      }
      case WRITE -> {
        Files.createDirectories(root);
        WriteAheadLog opened = WriteAheadLog.open(root, store.durability.node());
        LogReader.Scan scan;
        try {
          opened.syncRecovered(root);
          scan = LogReader.read(opened.segmentFiles());
        } catch (IOException | RuntimeException e) {
          opened.close();
          throw e;
        }
        opened.continueAfter(scan.lastSeq());
        store.logOpened(opened);
        Set<String> owed = new HashSet<>(scan.byDocument().keySet());
        owed.addAll(scan.damagedDocuments().keySet());
        checkpointer = new Checkpointer(opened, this::checkpoint, store.durability.checkpointLag());
        checkpointer.start(scan.segments(), owed);
        store.recovery.add(scan);
      }
    }
    logOpened = true;
  }

  /**
   * Joins a cluster: each commit's head is fenced and its revision handed to the other nodes
   * before its receipt, loads are completed from them, and request ids are claimed cluster-wide.
   */
  public void joinCluster(Peers peers, RequestClaims claims) {
    Committer c = store.committer;
    if (c instanceof LogCommitter local) {
      store.committer = new ReplicatingCommitter(local, peers);
    }
    store.requests.useClaims(claims);
  }

  /** Leaves the cluster: commits go to this node's log alone again. */
  public void leaveCluster() {
    if (store.committer instanceof ReplicatingCommitter r) {
      store.committer = r.local();
    }
    store.requests.useClaims(RequestClaims.NONE);
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
    store.ioPool.execute(() -> VaultScan.run(this, scanned));
    return scanned.future();
  }

  /**
   * Replays what the log holds for documents the scan did not find (their files are gone), so
   * that those revisions are set aside before the first write, never silently dropped.
   */
  Future<Void> replayLeftovers() {
    List<Future<DocSnapshot>> loads = new ArrayList<>();
    for (String path : store.recovery.pending()) {
      try {
        loads.add(actor(store.paths.document(path)).snapshot());
      } catch (GramException e) {
        LOG.warn("store.log records for {} stay in the log: the path does not resolve ({})", path, e.getMessage());
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

  /** Stops the watcher, lets every queued write finish, runs a last checkpoint, then stops the I/O pool. */
  public Future<Void> close() {
    VaultWatcher w = watcher;
    if (w != null) {
      w.close();
    }
    List<Future<DocSnapshot>> drains = new ArrayList<>();
    for (DocumentActor a : store.table.actors()) {
      drains.add(a.drained());
    }
    // Every mailbox has run what was queued before the drain; the last checkpoint round then
    // writes what is only in the log, so a clean stop leaves files that hold everything.
    return Future.join(drains).transform(ar -> {
      Promise<Void> done = Promise.promise();
      StoreThreads.closer(() -> {
        Checkpointer c = checkpointer;
        if (c != null) {
          c.close();
        }
        WriteAheadLog l = store.log;
        if (l != null) {
          l.close();
        }
        store.ioPool.shutdown();
        done.complete();
      }).start();
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
    WriteAheadLog l = store.log;
    if (l != null) {
      l.close();
    }
    store.ioPool.shutdownNow();
  }

  // ------------------------------------------------------------------ reads and writes

  DocumentActor actor(VaultPath p) {
    return store.actor(p);
  }

  @Override
  public PathResolver paths() {
    return store.paths;
  }

  @Override
  public Future<DocSnapshot> read(VaultPath p) {
    DocumentActor a = store.table.get(p.path());
    if (a != null && a.loaded()) {
      DocSnapshot s = a.current();
      return s == null ? Future.failedFuture(notFound(p)) : Future.succeededFuture(s);
    }
    return Async.onCallerContext(actor(p).snapshot()
        .compose(s -> s == null ? Future.failedFuture(notFound(p)) : Future.succeededFuture(s)));
  }

  @Override
  public DocSnapshot peek(String path) {
    DocumentActor a = store.table.get(path);
    return a == null ? null : a.current();
  }

  public static GramException notFound(VaultPath p) {
    return new GramException(ErrorCode.E_ARGUMENT, "Document not found: " + p.path());
  }

  @Override
  public List<DocSnapshot> documents() {
    List<DocSnapshot> out = new ArrayList<>();
    for (DocumentActor a : store.table.actors()) {
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
    // Folders compared as the volume compares names: on macOS, "P" is the folder "p".
    String prefix = folder.path().isEmpty() ? "" : store.names.key(folder.path() + "/");
    List<DocSnapshot> out = new ArrayList<>();
    for (DocSnapshot s : documents()) {
      boolean inMount = s.path().startsWith(PathResolver.MOUNTS + "/");
      if (prefix.isEmpty() ? !inMount : store.names.key(s.path()).startsWith(prefix)) {
        out.add(s);
      }
    }
    return out;
  }

  @Override
  public String pathOfDocumentId(String documentId) {
    return store.table.pathOf(documentId);
  }

  /** Re-reads a document that another program may have changed. */
  public Future<DocSnapshot> refresh(VaultPath p) {
    return actor(p).refresh();
  }

  /**
   * Queues a write on its document's mailbox once the start-up scan is done. The receipt comes
   * back on the caller's context, also when the scan (on an I/O thread) or another node's answer
   * completes what it waits for.
   */
  @Override
  public Future<CommitReceipt> submit(WriteCommand command) {
    return Async.onCallerContext(scanned.future().compose(v -> {
      if (store.log == null) {
        return Future.failedFuture(
            new GramException(ErrorCode.E_STORAGE, "Storage commit failed: this vault is open read-only here"));
      }
      return actor(command.path()).submit(command);
    }));
  }

  @Override
  public Instant visibleThrough() {
    return store.inFlight.visibleThrough();
  }

  @Override
  public Executor io() {
    return store.ioPool;
  }

  public Clock clock() {
    return store.clock;
  }

  // ------------------------------------------------------------------ checkpoints

  /** Checkpoints one document through its actor (the checkpointer's target): its file's size, or -1. */
  private Future<Long> checkpoint(String path) {
    VaultPath p;
    try {
      p = store.paths.document(path);
    } catch (GramException e) {
      LOG.warn("store.log records for {} stay in the log: the path does not resolve ({})", path, e.getMessage());
      return Future.succeededFuture(-1L);
    }
    return actor(p).checkpoint();
  }

  /** Checkpoint rounds run so far (tests wait for rounds to pass). */
  long checkpointRounds() {
    Checkpointer c = checkpointer;
    return c == null ? 0 : c.rounds();
  }

  /** Runs a checkpoint round now and waits for it (tests, benchmarks, shutdown). */
  public void checkpointNow() {
    Checkpointer c = checkpointer;
    if (c != null) {
      c.flush();
    }
  }

  // ------------------------------------------------------------------ cluster

  /**
   * Applies a revision another node committed to this node's copy of the document (a follower's
   * side of {@link Peers#replicate}); a revision already held is skipped.
   */
  public Future<Void> follow(String path, Revision revision) {
    return actor(store.paths.document(path)).follow(List.of(revision), false);
  }

  /**
   * Adds the revisions a dead node's log holds for a document this node now owns (those it lacks)
   * and writes the document's file, so that the dead node's log can be deleted.
   */
  public Future<Void> adopt(String path, List<Revision> revisions) {
    return actor(store.paths.document(path)).follow(revisions, true);
  }

  /**
   * The revisions of a document after {@code rev} in this node's copy, without waiting: what
   * another node loading the document asks for ({@link Peers#newerThan}).
   */
  public List<Revision> revisionsAfter(String path, int rev) {
    DocumentActor a = store.table.get(path);
    // Not loaded here: this node's copy would be the file the asking node read too (a cluster
    // node's own log is handed to the owners at start, never replayed into its copies).
    DocSnapshot s = a == null || !a.loaded() ? null : a.current();
    if (s == null || s.history() == null || s.rev() <= rev) {
      return List.of();
    }
    List<Revision> all = s.history().revisions();
    return List.copyOf(all.subList(Math.max(0, rev + 1), all.size()));
  }

  // ------------------------------------------------------------------ metrics

  /** What the store counts, for /metrics and tests. */
  public StoreMetrics metrics() {
    return metrics;
  }

}
