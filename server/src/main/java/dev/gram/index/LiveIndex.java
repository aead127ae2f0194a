package dev.gram.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.ControlledRealTimeReopenThread;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ReferenceManager;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.Bits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lucene index with near-real-time readers and generation tracking.
 *
 * <p>Writers call {@link #replace} or {@link #delete} and get the writer's sequence number of
 * that change. A change made for a commit of the vault (by the index's live thread, which a
 * recall waits for) is <em>live</em>: {@link #markLive} raises the generation every reader must see. A reader takes
 * that generation when its request arrives and {@link #awaitVisible waits} for it; the reopen
 * thread then refreshes once for every change made meanwhile, however many, so there is no
 * refresh per write. Changes of the background rebuild and of the embedder are not live: they
 * become visible within {@link #MAX_STALE_SEC}, and no reader waits for them.
 *
 * <p>The index is derived data. One that cannot be read, or was written by another version of
 * the mapping or another embedding model, is emptied and rebuilt from the vault. One whose folder
 * is locked by another process is replaced by an index in memory, so this server still answers.
 */
final class LiveIndex implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LiveIndex.class);

  /** Longest time a background change stays invisible. */
  static final double MAX_STALE_SEC = 0.5;

  /** How often uncommitted changes are made durable. */
  private static final long COMMIT_EVERY_MS = 5_000;

  /**
   * Path locks are striped. Many stripes, because a stripe is shared by unrelated documents: the
   * live thread indexing a commit that a recall waits for must rarely find its stripe held by the
   * embedder or the rebuild working on another document at background priority.
   */
  private static final int LOCK_STRIPES = 1024;

  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager manager;
  private final ControlledRealTimeReopenThread<IndexSearcher> reopener;
  private final ScheduledExecutorService committer;
  private final IdleCompaction compaction;
  private final AtomicLong liveGen = new AtomicLong();
  private final AtomicLong backgroundGen = new AtomicLong();
  private final ReentrantLock[] pathLocks = new ReentrantLock[LOCK_STRIPES];
  private final String location;
  private final boolean rebuilt;
  private volatile boolean closed;

  private LiveIndex(Directory directory, IndexWriter writer, String location, boolean rebuilt) throws IOException {
    this.directory = directory;
    this.writer = writer;
    this.location = location;
    this.rebuilt = rebuilt;
    this.manager = new SearcherManager(writer, true, false, new SearcherFactory());
    this.reopener = new ControlledRealTimeReopenThread<>(writer, manager, MAX_STALE_SEC, 0.0);
    this.reopener.setName("gram-index-reopen");
    this.reopener.setDaemon(true);
    this.reopener.start();
    for (int i = 0; i < LOCK_STRIPES; i++) {
      pathLocks[i] = new ReentrantLock();
    }
    this.compaction = new IdleCompaction(writer);
    this.committer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gram-index-commit");
              t.setDaemon(true);
              return t;
            });
    committer.scheduleWithFixedDelay(this::commitQuietly, COMMIT_EVERY_MS, COMMIT_EVERY_MS, TimeUnit.MILLISECONDS);
  }

  /**
   * Opens the index in {@code folder} (creating it), or in memory when {@code folder} is null or
   * locked by another process.
   */
  static LiveIndex open(Path folder, String modelName, dev.gram.async.Background background) {
    if (folder != null) {
      try {
        Files.createDirectories(folder);
        // Small NRT segments stay in memory until merged or committed: a refresh then writes
        // no files, which keeps the refresh a reader may wait for short.
        Directory dir = new NRTCachingDirectory(FSDirectory.open(folder), 8.0, 64.0);
        try {
          return open(dir, folder.toString(), modelName, background);
        } catch (LockObtainFailedException e) {
          dir.close();
          LOG.warn("index {} is in use by another process; this server keeps its index in memory", folder);
        }
      } catch (IOException e) {
        LOG.warn("index {} cannot be opened ({}); this server keeps its index in memory", folder, e.toString());
      }
    }
    try {
      return open(new ByteBuffersDirectory(), "memory", modelName, background);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static LiveIndex open(Directory dir, String location, String modelName, dev.gram.async.Background background)
      throws IOException {
    boolean rebuild = false;
    String why = null;
    if (DirectoryReader.indexExists(dir)) {
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        Map<String, String> user = r.getIndexCommit().getUserData();
        if (!Schema.VERSION.equals(user.get(Schema.USER_VERSION))) {
          rebuild = true;
          why = "it was written by another version of the index mapping";
        } else if (!modelName.equals(user.get(Schema.USER_MODEL))) {
          rebuild = true;
          why = "its vectors come from another embedding model";
        }
      } catch (IOException | RuntimeException e) {
        rebuild = true;
        why = "it cannot be read: " + e;
      }
    }
    if (rebuild) {
      LOG.info("index {} is rebuilt from the vault: {}", location, why);
    }
    IndexWriterConfig cfg = new IndexWriterConfig(Analyzers.forIndex());
    cfg.setOpenMode(rebuild ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    settle(cfg, background);
    IndexWriter w;
    try {
      w = new IndexWriter(dir, cfg);
    } catch (LockObtainFailedException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // A damaged index: start it over; it is derived from the vault.
      LOG.info("index {} is rebuilt from the vault: {}", location, e.toString());
      cfg = new IndexWriterConfig(Analyzers.forIndex());
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
      settle(cfg, background);
      w = new IndexWriter(dir, cfg);
      rebuild = true;
    }
    Map<String, String> user = new HashMap<>();
    user.put(Schema.USER_VERSION, Schema.VERSION);
    user.put(Schema.USER_MODEL, modelName);
    w.setLiveCommitData(user.entrySet());
    return new LiveIndex(dir, w, location, rebuild);
  }

  /** The writer's settings, one place for both ways of opening it. */
  private static void settle(IndexWriterConfig cfg, dev.gram.async.Background background) {
    cfg.setRAMBufferSizeMB(64);
    noMergeOnRefresh(cfg);
    cfg.setMergeScheduler(new BackgroundMerges(background));
    cfg.setMergePolicy(IdleCompaction.policy());
    cfg.setCommitOnClose(true);
  }

  /**
   * A near-real-time reopen (what a recall waits for after a write) and a commit must not wait
   * for merges. By default Lucene merges the small segments a full flush leaves and waits up to
   * 500 ms for that, on every reopen and commit: that wait was the 0.4-0.55 s a recall sometimes
   * took to see a write (the slowest of 20 samples, in 4 bench runs of 10; after: 45-65 ms in 5
   * of 5). Merges still run, in the background, as for any other flush.
   */
  private static void noMergeOnRefresh(IndexWriterConfig cfg) {
    cfg.setMaxFullFlushMergeWaitMillis(0);
  }

  String location() {
    return location;
  }

  /** True when the index was emptied at open and everything is indexed again. */
  boolean rebuilt() {
    return rebuilt;
  }

  // ------------------------------------------------------------------ writing

  /** The lock serializing changes to one document's block (commits, rebuild and embedder). */
  ReentrantLock lockFor(String path) {
    return pathLocks[Math.floorMod(path.hashCode(), LOCK_STRIPES)];
  }

  /** Replaces a document's block; returns the change's sequence number. */
  long replace(String path, List<Document> docs) throws IOException {
    return writer.updateDocuments(new Term(Schema.PATH, path), docs);
  }

  /** Replaces the one Lucene document of that key; returns the change's sequence number. */
  long replaceUnit(String key, Document doc) throws IOException {
    return writer.updateDocument(new Term(Schema.UKEY, key), doc);
  }

  /** Removes the one Lucene document of that key; returns the change's sequence number. */
  long deleteUnit(String key) throws IOException {
    return writer.deleteDocuments(new Term(Schema.UKEY, key));
  }

  /** Removes a document's block; returns the change's sequence number. */
  long delete(String path) throws IOException {
    return writer.deleteDocuments(new Term(Schema.PATH, path));
  }

  /** Readers arriving from now on must see the change of sequence number {@code seq}. */
  void markLive(long seq) {
    liveGen.accumulateAndGet(seq, Math::max);
  }

  /** The generation a reader arriving now must see. */
  long liveGeneration() {
    return liveGen.get();
  }

  /** Notes a change of the background rebuild, which readers do not wait for. */
  void markBackground(long seq) {
    backgroundGen.accumulateAndGet(seq, Math::max);
  }

  /** The newest change of the background rebuild. */
  long backgroundGeneration() {
    return backgroundGen.get();
  }

  /** The generation the current searcher is sure to include. */
  long searchingGeneration() {
    return reopener.getSearchingGen();
  }

  // ------------------------------------------------------------------ reading

  /**
   * Blocks until the searcher includes generation {@code gen}: at most one refresh, shared with
   * every reader waiting at the same time. Returns false if {@code maxMs} passed first.
   */
  boolean awaitVisible(long gen, int maxMs) throws InterruptedException {
    if (gen <= 0) {
      return true;
    }
    return reopener.waitForGeneration(gen, maxMs);
  }

  IndexSearcher acquire() throws IOException {
    return manager.acquire();
  }

  void release(IndexSearcher s) throws IOException {
    manager.release(s);
  }

  void addRefreshListener(ReferenceManager.RefreshListener l) {
    manager.addListener(l);
  }

  /** Refreshes now (tests and the end of a rebuild burst). */
  void refresh() throws IOException {
    manager.maybeRefreshBlocking();
  }

  /** Every stored fingerprint, path → {rev, hash}, read from the latest commit or NRT view. */
  Map<String, Fingerprint> fingerprints() throws IOException {
    Map<String, Fingerprint> out = new HashMap<>();
    forEachMatch(new TermQuery(new Term(Schema.KIND, Schema.KIND_META)), null, d ->
        out.put(d.get(Schema.PATH), new Fingerprint(d.getField(Schema.REV).numericValue().intValue(), d.get(Schema.HASH))));
    return out;
  }

  /** The paths having at least one unit without a vector ({@link UnembeddedPaths}). */
  List<String> pathsMissingVectors() throws IOException {
    IndexSearcher s = acquire();
    try {
      return UnembeddedPaths.in(s.getIndexReader());
    } finally {
      release(s);
    }
  }

  /** Calls {@code action} with the stored fields ({@code fields}, null: all) of every live match. */
  private void forEachMatch(Query q, java.util.Set<String> fields, java.util.function.Consumer<Document> action)
      throws IOException {
    IndexSearcher s = acquire();
    try {
      Weight w = s.createWeight(s.rewrite(q), ScoreMode.COMPLETE_NO_SCORES, 1f);
      for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
        Scorer sc = w.scorer(leaf);
        if (sc == null) {
          continue;
        }
        Bits live = leaf.reader().getLiveDocs();
        StoredFields stored = leaf.reader().storedFields();
        DocIdSetIterator it = sc.iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
          if (live == null || live.get(doc)) {
            action.accept(fields == null ? stored.document(doc) : stored.document(doc, fields));
          }
        }
      }
    } finally {
      release(s);
    }
  }

  /** A document's stored fingerprint. */
  record Fingerprint(int rev, String hash) {}

  // ------------------------------------------------------------------ lifecycle

  private void commitQuietly() {
    if (closed) {
      return;
    }
    try {
      if (writer.hasUncommittedChanges()) {
        writer.commit();
      }
      compaction.tick();
    } catch (IOException | RuntimeException e) {
      LOG.warn("index commit failed: {}", e.toString());
    }
  }

  /** Makes every change so far durable (the index survives a restart without rebuilding). */
  void commit() throws IOException {
    writer.commit();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    committer.shutdownNow();
    reopener.close();
    try {
      manager.close();
    } catch (IOException e) {
      LOG.warn("closing the index readers: {}", e.toString());
    }
    try {
      // Commit, then roll back to close: close() would wait for running merges, and merging
      // segments with vectors rebuilds their graphs, which on a large vault takes longer than a
      // runtime waits for its sidecar to exit. After the commit, rollback loses nothing; an
      // unfinished merge is simply done again later.
      writer.commit();
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing the index writer: {}", e.toString());
      try {
        writer.rollback();
      } catch (IOException | RuntimeException again) {
        LOG.debug("rolling back the index writer: {}", again.toString());
      }
    }
    try {
      directory.close();
    } catch (IOException e) {
      LOG.warn("closing the index folder: {}", e.toString());
    }
  }
}
