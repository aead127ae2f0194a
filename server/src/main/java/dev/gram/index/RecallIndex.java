package dev.gram.index;

import dev.gram.async.Async;
import dev.gram.store.CommitListener;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ReferenceManager;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search index of the vault, kept in step with it, and the searches of {@code gram_recall}.
 * See the package documentation for the design.
 */
public final class RecallIndex implements IndexStatus, CommitListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RecallIndex.class);

  /** How a hybrid search fuses its two rankings; see {@code docs/recall.md} for the measurement. */
  enum Fusion {
    /** Reciprocal rank fusion: Σ weight / (60 + rank). */
    RRF,
    /** Convex combination of min-max normalized scores: Σ weight × normalized score. */
    CONVEX
  }

  static volatile Fusion fusion = Fusion.RRF;

  /** The semantic ranking's weight in a fusion; the keyword ranking has 1 minus this. */
  static volatile double semanticWeight = 0.5;

  static final int RRF_K = 60;

  /** Depth of each ranking fused by a hybrid search (at least). */
  static final int FUSE_DEPTH = 50;

  /** Most candidates one search looks at while refilling a filtered or collapsed page. */
  static final int MAX_FETCH = 20_000;

  /** Chunks per call of the embedding model: small, so a search never waits long behind one. */
  static final int EMBED_BATCH = 8;
  /** Searches that ended this recently still count as agents searching (see yieldToSearches). */
  static final long YIELD_QUIET_MS = 50;
  /** The longest the embedder waits for searches before each batch. */
  static final long YIELD_MAX_MS = 500;

  /** The longest a recall waits for a write's generation to become searchable. */
  static final int VISIBLE_WAIT_MS = 10_000;

  enum Status {
    /** In the index from an earlier run, not yet compared with the vault. */
    UNVERIFIED,
    /** Known to need indexing; queued for the background rebuild. */
    PENDING,
    INDEXED,
    /** Cannot be parsed: not in the index. */
    FAILED
  }

  /** What the index knows of one document. */
  record Entry(Status status, int rev, String hash) {
    boolean matches(DocSnapshot s) {
      return rev == s.rev() && Objects.equals(hash, s.hash());
    }
  }

  private final Vault vault;
  private final LiveIndex index;
  private final SemanticState semantic;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final AtomicIntegerArray counts = new AtomicIntegerArray(Status.values().length);
  private final Set<String> sighted = ConcurrentHashMap.newKeySet();
  private final WorkQueue rebuildQueue = new WorkQueue();
  private final WorkQueue embedQueue = new WorkQueue();
  private final VectorCache cache = new VectorCache(8_192);
  /**
   * What this process last wrote for each document: unit key → content signature. A commit then
   * rewrites only the units whose signature changed (and the meta document); a document this
   * process has not written yet is written whole.
   */
  private final ConcurrentHashMap<String, Map<String, Object>> written = new ConcurrentHashMap<>();
  private final ExecutorService searchPool;
  private final ScheduledExecutorService ticker;
  private final Thread rebuilder;
  private final Thread embedder;
  /**
   * Commits waiting to be indexed, the newest snapshot per path. A commit only queues its
   * snapshot here (the receipt does not wait for Lucene); a recall waits until every commit
   * queued before it arrived is in the index. Many commits to one document meanwhile cost one
   * indexing of its latest state.
   */
  private final Map<String, DocSnapshot> live = new LinkedHashMap<>();
  private final Thread liveWriter;
  private long liveQueued;
  private long liveApplied;
  private final Progress progress;
  private final long rebuildDelayMs;
  private volatile int embedded;
  private volatile int unembedded;
  private volatile boolean closed;
  /** Recalls running now, and when the last one ended: the embedder gives way to them. */
  private final AtomicInteger searching = new AtomicInteger();
  private volatile long lastSearchEnded = System.nanoTime() - TimeUnit.MINUTES.toNanos(1);
  /** True while the rebuild thread works on a document it took from the queue. */
  private volatile boolean rebuilding;

  private RecallIndex(Vault vault, LiveIndex index, SemanticState semantic) {
    this.vault = vault;
    this.index = index;
    this.semantic = semantic;
    // Lets a test slow the rebuild down to watch the server answer meanwhile.
    this.rebuildDelayMs = Long.getLong("gram.index.rebuildDelayMs", 0L);
    AtomicInteger n = new AtomicInteger();
    this.searchPool =
        Executors.newFixedThreadPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()),
            r -> daemon(r, "gram-recall-" + n.incrementAndGet()));
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "gram-index-progress"));
    this.progress = new Progress(() -> rebuildQueue.size() + (rebuilding ? 1 : 0));
    this.rebuilder = daemon(this::rebuildLoop, "gram-index-rebuild");
    this.embedder = daemon(this::embedLoop, "gram-embed");
    this.liveWriter = daemon(this::liveLoop, "gram-index-live");
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Opens the index of {@code vault} in {@code folder} (null: in memory) and starts keeping it in
   * step. Must be called before {@link Vault#start()}: the index hears of every document the
   * vault loads.
   */
  public static RecallIndex open(Vault vault, Path folder, boolean semanticOn) {
    return open(vault, folder, semanticOn ? EmbeddingModel::shared : null);
  }

  /** As {@link #open(Vault, Path, boolean)}, with the model to probe ({@code null}: off). */
  static RecallIndex open(Vault vault, Path folder, Supplier<CompletableFuture<EmbeddingModel.Encoder>> model) {
    LiveIndex li = LiveIndex.open(folder, EmbeddingModel.NAME);
    SemanticState sem = model == null ? SemanticState.off() : SemanticState.probing(model.get());
    RecallIndex ri = new RecallIndex(vault, li, sem);
    ri.start();
    return ri;
  }

  private void start() {
    try {
      for (Map.Entry<String, LiveIndex.Fingerprint> e : index.fingerprints().entrySet()) {
        setEntry(e.getKey(), new Entry(Status.UNVERIFIED, e.getValue().rev(), e.getValue().hash()));
      }
    } catch (IOException e) {
      LOG.warn("cannot read the index fingerprints: {}", e.toString());
    }
    index.addRefreshListener(
        new ReferenceManager.RefreshListener() {
          @Override
          public void beforeRefresh() {}

          @Override
          public void afterRefresh(boolean didRefresh) {
            if (didRefresh) {
              recount();
            }
          }
        });
    recount();
    vault.addListener(this);
    vault.scanned()
        .onSuccess(
            v -> {
              // What the index holds from an earlier run and the vault no longer has: remove.
              for (Map.Entry<String, Entry> e : entries.entrySet()) {
                if (e.getValue().status() == Status.UNVERIFIED) {
                  rebuildQueue.add(e.getKey());
                }
              }
            });
    if (semantic.wanted()) {
      // Units indexed in an earlier run without a vector get one once the model is ready.
      semantic.whenReady()
          .thenRun(
              () -> {
                try {
                  for (String p : index.pathsMissingVectors()) {
                    embedQueue.add(p);
                  }
                } catch (IOException | RuntimeException e) {
                  LOG.warn("cannot list what is left to embed: {}", e.toString());
                }
              });
    }
    rebuilder.start();
    embedder.start();
    liveWriter.start();
    ticker.scheduleWithFixedDelay(progress::tick, 250, 250, TimeUnit.MILLISECONDS);
    LOG.info("search index at {}{}", index.location(), index.rebuilt() ? " (rebuilt from the vault)" : "");
  }

  // ------------------------------------------------------------------ keeping in step

  /**
   * Called on the document's actor thread for every new state, before a write's receipt is
   * returned. The first state seen of a document that the index does not already hold at that
   * revision goes to the background rebuild (the vault is loading it, no one waits for it); every
   * later one is a commit or an edit by another program and is indexed here, at once, so that the
   * receipt's reader finds it.
   */
  @Override
  public void onChange(String path, DocSnapshot snapshot) {
    if (closed) {
      return;
    }
    boolean first = sighted.add(path);
    if (first && snapshot != null && snapshot.state() != null) {
      ReentrantLock lock = index.lockFor(path);
      lock.lock();
      try {
        Entry e = entries.get(path);
        if (e != null && e.matches(snapshot)) {
          setEntry(path, new Entry(Status.INDEXED, e.rev(), e.hash()));
        } else {
          setEntry(path, new Entry(Status.PENDING, snapshot.rev(), snapshot.hash()));
          rebuildQueue.add(path);
        }
      } finally {
        lock.unlock();
      }
      return;
    }
    synchronized (live) {
      live.remove(path);
      live.put(path, snapshot);
      liveQueued++;
      live.notifyAll();
    }
  }

  /** Indexes queued commits, newest state per document, and lets waiting recalls go. */
  private void liveLoop() {
    while (!closed) {
      Map<String, DocSnapshot> batch;
      long upTo;
      synchronized (live) {
        while (live.isEmpty() && !closed) {
          try {
            live.wait(200);
          } catch (InterruptedException e) {
            return;
          }
        }
        batch = new LinkedHashMap<>(live);
        live.clear();
        upTo = liveQueued;
      }
      for (Map.Entry<String, DocSnapshot> e : batch.entrySet()) {
        apply(e.getKey(), e.getValue(), true);
      }
      synchronized (live) {
        liveApplied = Math.max(liveApplied, upTo);
        live.notifyAll();
      }
    }
  }

  /** Waits until every commit queued before {@code ticket} was taken is in the index. */
  private void awaitLiveApplied(long ticket, long maxMs) throws InterruptedException {
    long deadline = System.nanoTime() + maxMs * 1_000_000L;
    synchronized (live) {
      while (liveApplied < ticket && !closed) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return;
        }
        live.wait(left);
      }
    }
  }

  /** Brings one document's block up to date with {@code s} (null: the document is gone). */
  private void apply(String path, DocSnapshot s, boolean live) {
    ReentrantLock lock = index.lockFor(path);
    lock.lock();
    try {
      Entry e = entries.get(path);
      if (s == null) {
        if (e != null) {
          noteSeq(index.delete(path), live);
          removeEntry(path);
        }
        written.remove(path);
        return;
      }
      if (s.state() == null) {
        written.remove(path);
        if (e == null || e.status() != Status.FAILED) {
          noteSeq(index.delete(path), live);
          setEntry(path, new Entry(Status.FAILED, s.rev(), s.hash()));
          LOG.warn("{} cannot be indexed: {}", path, s.failure());
        }
        return;
      }
      if (e != null && (e.status() == Status.INDEXED || e.status() == Status.UNVERIFIED) && e.matches(s)) {
        if (e.status() == Status.UNVERIFIED) {
          setEntry(path, new Entry(Status.INDEXED, e.rev(), e.hash()));
        }
        return;
      }
      Map<String, Object> known = written.get(path);
      int missing;
      if (live && known != null) {
        missing = applyChanges(path, s, known);
      } else {
        DocMapper.Mapped m = DocMapper.map(path, s.rev(), s.hash(), s.state(), vectorsFor(path));
        noteSeq(index.replace(path, m.docs()), live);
        written.put(path, signatures(m));
        missing = m.missingVectors();
      }
      setEntry(path, new Entry(Status.INDEXED, s.rev(), s.hash()));
      if (missing > 0 && semantic.wanted()) {
        embedQueue.add(path);
      }
    } catch (IOException | RuntimeException ex) {
      // One document that cannot be indexed never stops the others.
      LOG.error("indexing {} failed", path, ex);
      setEntry(path, new Entry(Status.FAILED, s == null ? 0 : s.rev(), s == null ? null : s.hash()));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Rewrites the units of a committed document whose content changed, removes the ones that are
   * gone, and rewrites the meta document (its revision and hash). A commit that adds one record to
   * a document of a thousand touches two Lucene documents, not a thousand and one. Returns how
   * many of the rewritten units lack a vector.
   */
  private int applyChanges(String path, DocSnapshot s, Map<String, Object> known) throws IOException {
    List<DocMapper.Planned> plan = DocMapper.plan(path, s.state());
    Map<String, Object> next = new HashMap<>(plan.size() * 2 + 2);
    long seq = index.replaceUnit(DocMapper.metaKey(path), DocMapper.meta(path, s.rev(), s.hash()));
    next.put(DocMapper.metaKey(path), s.rev() + " " + s.hash());
    List<String> folders = DocMapper.folders(path);
    String docTitle = s.state().title().isEmpty() ? s.state().id() : s.state().title();
    int missing = 0;
    for (DocMapper.Planned p : plan) {
      next.put(p.key(), p.signature());
      if (!Objects.equals(p.signature(), known.get(p.key()))) {
        Document d = DocMapper.document(path, p, folders, docTitle, cache::get);
        seq = Math.max(seq, index.replaceUnit(p.key(), d));
        if ("0".equals(d.getField(Schema.EMBEDDED).stringValue())) {
          missing++;
        }
      }
    }
    for (String key : known.keySet()) {
      if (!next.containsKey(key)) {
        seq = Math.max(seq, index.deleteUnit(key));
      }
    }
    written.put(path, next);
    noteSeq(seq, true);
    return missing;
  }

  private static Map<String, Object> signatures(DocMapper.Mapped m) {
    Map<String, Object> out = new HashMap<>(m.keys().size() * 2);
    for (int i = 0; i < m.keys().size(); i++) {
      out.put(m.keys().get(i), m.signatures().get(i));
    }
    return out;
  }

  private void noteSeq(long seq, boolean live) {
    if (live) {
      index.markLive(seq);
    } else {
      index.markBackground(seq);
    }
  }

  private void setEntry(String path, Entry next) {
    entries.compute(
        path,
        (k, old) -> {
          if (old != null) {
            counts.decrementAndGet(old.status().ordinal());
          }
          counts.incrementAndGet(next.status().ordinal());
          return next;
        });
  }

  private void removeEntry(String path) {
    entries.computeIfPresent(
        path,
        (k, old) -> {
          counts.decrementAndGet(old.status().ordinal());
          return null;
        });
  }

  private void rebuildLoop() {
    while (!closed) {
      String path;
      try {
        path = rebuildQueue.take(200);
      } catch (InterruptedException e) {
        return;
      }
      if (path == null) {
        continue;
      }
      if (rebuildDelayMs > 0) {
        try {
          Thread.sleep(rebuildDelayMs);
        } catch (InterruptedException e) {
          return;
        }
      }
      if (closed) {
        return;
      }
      rebuilding = true;
      try {
        apply(path, vault.peek(path), false);
      } finally {
        rebuilding = false;
      }
      progress.step();
    }
  }

  // ------------------------------------------------------------------ embedding

  private void embedLoop() {
    while (!closed) {
      if (!semantic.wanted()) {
        embedQueue.clear();
        sleep(500);
        continue;
      }
      EmbeddingModel.Encoder enc;
      try {
        enc = semantic.whenReady().get(200, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        continue;
      } catch (InterruptedException e) {
        return;
      }
      String path;
      try {
        path = embedQueue.take(200);
      } catch (InterruptedException e) {
        return;
      }
      if (path != null) {
        try {
          embed(path, enc);
        } catch (IOException | RuntimeException e) {
          LOG.warn("embedding {} failed: {}", path, e.toString());
        }
      }
    }
  }

  /**
   * Computing vectors is background work that takes a whole core: while agents are searching (a
   * recall running, or one ended in the last {@link #YIELD_QUIET_MS} ms), the embedder waits
   * before its next batch, so their answers do not queue behind it. It waits at most {@link
   * #YIELD_MAX_MS} per batch, so a steady stream of searches slows embedding down but never
   * stops it.
   */
  private void yieldToSearches() {
    long start = System.nanoTime();
    while (!closed && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(YIELD_MAX_MS)) {
      boolean busy = searching.get() > 0
          || System.nanoTime() - lastSearchEnded < TimeUnit.MILLISECONDS.toNanos(YIELD_QUIET_MS);
      if (!busy) {
        return;
      }
      sleep(5);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Computes the vectors a document's units lack, in batches, outside every lock, then writes
   * the block again with them if the document has not changed meanwhile (if it has, its new
   * state was queued here by the change).
   */
  private void embed(String path, EmbeddingModel.Encoder enc) throws IOException {
    DocSnapshot s = vault.peek(path);
    Entry e = entries.get(path);
    if (s == null || s.state() == null || e == null || e.status() != Status.INDEXED || !e.matches(s)) {
      return;
    }
    List<DocMapper.Unit> units = DocMapper.units(s.state());
    Map<String, float[]> have = existingVectors(path);
    Map<String, String> missing = new LinkedHashMap<>();
    for (DocMapper.Unit u : units) {
      if (!have.containsKey(u.chunkKey())) {
        float[] cached = cache.get(u.chunkKey());
        if (cached != null) {
          have.put(u.chunkKey(), cached);
        } else {
          missing.put(u.chunkKey(), u.embedText());
        }
      }
    }
    List<Map.Entry<String, String>> todo = new ArrayList<>(missing.entrySet());
    for (int i = 0; i < todo.size(); i += EMBED_BATCH) {
      if (closed) {
        return;
      }
      yieldToSearches();
      List<Map.Entry<String, String>> batch = todo.subList(i, Math.min(todo.size(), i + EMBED_BATCH));
      List<String> texts = new ArrayList<>(batch.size());
      for (Map.Entry<String, String> b : batch) {
        texts.add(b.getValue());
      }
      float[][] vectors = enc.embed(texts);
      for (int j = 0; j < batch.size(); j++) {
        have.put(batch.get(j).getKey(), vectors[j]);
        cache.put(batch.get(j).getKey(), vectors[j]);
      }
    }
    ReentrantLock lock = index.lockFor(path);
    lock.lock();
    try {
      DocSnapshot now = vault.peek(path);
      Entry en = entries.get(path);
      if (now != null && now.state() != null && now.rev() == s.rev() && Objects.equals(now.hash(), s.hash())
          && en != null && en.status() == Status.INDEXED && en.matches(s)) {
        DocMapper.Mapped m = DocMapper.map(path, s.rev(), s.hash(), s.state(), have::get);
        index.replace(path, m.docs());
        written.put(path, signatures(m));
      }
    } finally {
      lock.unlock();
    }
  }

  /** Vectors already computed for a document's units: the cache, then the index. */
  private DocMapper.Vectors vectorsFor(String path) {
    if (!semantic.wanted()) {
      return DocMapper.Vectors.NONE;
    }
    return new DocMapper.Vectors() {
      private Map<String, float[]> stored;

      @Override
      public float[] get(String key) {
        float[] v = cache.get(key);
        if (v != null) {
          return v;
        }
        if (stored == null) {
          try {
            stored = existingVectors(path);
          } catch (IOException e) {
            stored = Map.of();
          }
        }
        return stored.get(key);
      }
    };
  }

  /** chunk key → vector for the units of {@code path} in the current searcher. */
  private Map<String, float[]> existingVectors(String path) throws IOException {
    Map<String, float[]> out = new HashMap<>();
    IndexSearcher s = index.acquire();
    try {
      Query q =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(Schema.PATH, path)), Occur.FILTER)
              .add(new TermQuery(new Term(Schema.EMBEDDED, "1")), Occur.FILTER)
              .build();
      TopDocs td = s.search(q, 100_000);
      int[] docs = new int[td.scoreDocs.length];
      for (int i = 0; i < docs.length; i++) {
        docs[i] = td.scoreDocs[i].doc;
      }
      Arrays.sort(docs);
      List<LeafReaderContext> leaves = s.getIndexReader().leaves();
      int leafOrd = -1;
      FloatVectorValues values = null;
      StoredFields stored = null;
      for (int doc : docs) {
        int li = ReaderUtil.subIndex(doc, leaves);
        LeafReaderContext leaf = leaves.get(li);
        if (li != leafOrd) {
          leafOrd = li;
          values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
          stored = leaf.reader().storedFields();
        }
        if (values == null) {
          continue;
        }
        int local = doc - leaf.docBase;
        if (values.docID() < local && values.advance(local) != local) {
          continue;
        }
        if (values.docID() == local) {
          String key = stored.document(local, Set.of(Schema.CHUNK)).get(Schema.CHUNK);
          out.put(key, values.vectorValue().clone());
        }
      }
    } finally {
      index.release(s);
    }
    return out;
  }

  private void recount() {
    try {
      IndexSearcher s = index.acquire();
      try {
        embedded = s.count(new TermQuery(new Term(Schema.EMBEDDED, "1")));
        unembedded = s.count(new TermQuery(new Term(Schema.EMBEDDED, "0")));
      } finally {
        index.release(s);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("recount failed: {}", e.toString());
    }
  }

  // ------------------------------------------------------------------ status

  @Override
  public Stats stats() {
    return new Stats(
        counts.get(Status.INDEXED.ordinal()),
        pendingFiles(),
        counts.get(Status.FAILED.ordinal()),
        embedded);
  }

  private int pendingFiles() {
    return counts.get(Status.PENDING.ordinal()) + counts.get(Status.UNVERIFIED.ordinal());
  }

  @Override
  public Semantic semantic() {
    String reason = semantic.reason();
    return semantic.ready() && reason == null
        ? new Semantic(Semantic.AVAILABLE, null)
        : new Semantic(Semantic.UNAVAILABLE, reason == null ? SemanticState.LOADING_REASON : reason);
  }

  // ------------------------------------------------------------------ searching

  /**
   * Runs a recall on the search pool. The generation to see is taken now, on the caller's thread:
   * every write whose receipt was returned before this call is found.
   */
  public Future<RecallResult> recall(RecallRequest req) {
    long ticket;
    synchronized (live) {
      ticket = liveQueued;
    }
    return Async.run(searchPool, () -> {
      searching.incrementAndGet();
      try {
        awaitLiveApplied(ticket, VISIBLE_WAIT_MS);
        return search(req, index.liveGeneration());
      } finally {
        lastSearchEnded = System.nanoTime();
        searching.decrementAndGet();
      }
    });
  }

  /** A candidate hit: the best Lucene document of one entity, and its score. */
  private record Cand(int doc, float score, String key, Float cosine) {}

  RecallResult search(RecallRequest req, long gen) throws IOException, InterruptedException {
    index.awaitVisible(gen, VISIBLE_WAIT_MS);
    long visible = index.searchingGeneration();
    IndexSearcher s = index.acquire();
    try {
      RecallRequest.Mode asked = req.mode();
      RecallRequest.Mode used = asked == RecallRequest.Mode.AUTO ? choose(req.query()) : asked;
      String fallback = null;
      EmbeddingModel.Encoder enc = semantic.encoder();
      boolean wantsVectors = used == RecallRequest.Mode.SEMANTIC || used == RecallRequest.Mode.HYBRID;
      if (wantsVectors && (!semantic.ready() || enc == null)) {
        fallback = semantic().reason() + "; answered in keyword mode";
        used = RecallRequest.Mode.KEYWORD;
        wantsVectors = false;
      }
      Query filter = Queries.filter(req.filters());
      int need = req.offset() + req.topK() + 1;
      float[] qv = wantsVectors ? enc.embed(req.query()) : null;
      List<Cand> ranked;
      switch (used) {
        case EXACT:
          ranked = lexical(s, Queries.exact(req.query()), filter, need);
          break;
        case SEMANTIC:
          ranked = vector(s, qv, filter, need);
          break;
        case HYBRID:
          {
            int depth = Math.max(need, FUSE_DEPTH);
            List<Cand> lex = keywordHits(s, req.query(), filter, depth);
            List<Cand> sem = vector(s, qv, filter, depth);
            ranked = fuse(lex, sem);
            break;
          }
        case KEYWORD:
        default:
          ranked = keywordHits(s, req.query(), filter, need);
          used = RecallRequest.Mode.KEYWORD;
          break;
      }
      int from = Math.min(req.offset(), ranked.size());
      int to = Math.min(req.offset() + req.topK(), ranked.size());
      List<RecallResult.Hit> hits = new ArrayList<>(to - from);
      for (Cand c : ranked.subList(from, to)) {
        hits.add(hit(s, c, qv));
      }
      int pending = pendingFiles();
      boolean partial = pending > 0 || !vault.scanComplete() || visible < index.backgroundGeneration();
      return new RecallResult(
          hits,
          ranked.size() > to,
          used,
          qv != null,
          fallback,
          pending,
          partial,
          qv != null ? unembedded : 0);
    } finally {
      index.release(s);
    }
  }

  /**
   * The mode {@code auto} picks: {@code exact} for a quoted query; {@code keyword} for an id, a
   * date with at most two other words, one or two words, or whenever semantic search is not
   * available; {@code hybrid} for anything longer, which reads as a description of what is
   * wanted.
   */
  RecallRequest.Mode choose(String query) {
    String q = query.strip();
    if (q.length() >= 2 && q.startsWith("\"") && q.endsWith("\"")) {
      return RecallRequest.Mode.EXACT;
    }
    Queries.Dates d = Queries.dates(q);
    if (!d.spans().isEmpty() && Queries.words(d.rest()).size() <= 2) {
      return RecallRequest.Mode.KEYWORD;
    }
    String[] raw = q.split("\\s+");
    if (raw.length == 1 && q.matches(".*[\\d_:].*")) {
      return RecallRequest.Mode.KEYWORD;
    }
    if (!semantic.ready()) {
      return RecallRequest.Mode.KEYWORD;
    }
    if (autoSemanticForQuestions && isQuestion(q)) {
      return RecallRequest.Mode.SEMANTIC;
    }
    return Queries.words(q).size() >= autoHybridWords ? RecallRequest.Mode.HYBRID : RecallRequest.Mode.KEYWORD;
  }

  /** Whether auto answers a question asked as a sentence in semantic mode (measured: docs/recall.md). */
  static volatile boolean autoSemanticForQuestions = true;

  private static final Set<String> QUESTION_WORDS =
      Set.of("who", "whom", "whose", "what", "which", "when", "where", "why", "how",
          "is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will", "must");

  /** A query asked as a sentence: ends with a question mark or starts with a question word. */
  static boolean isQuestion(String q) {
    if (q.endsWith("?")) {
      return true;
    }
    String first = q.split("\\s+")[0].toLowerCase(java.util.Locale.ROOT);
    return QUESTION_WORDS.contains(first) && q.split("\\s+").length >= 3;
  }

  /** Content words from which auto uses hybrid rather than keyword (see docs/recall.md). */
  static volatile int autoHybridWords = 3;

  /** Ranked, collapsed (one per entity) lexical candidates, refilling past filtered-out ones. */
  /**
   * Keyword hits: the units that match every word of the query; when none does, the units that
   * match some of them, best first. A search for "lunar migration evidence" should not answer
   * with the migration decision that never mentions evidence, but a query with one stray word
   * should still find something.
   */
  private List<Cand> keywordHits(IndexSearcher s, String query, Query filter, int need) throws IOException {
    List<Cand> all = lexical(s, Queries.keyword(query, s.getIndexReader(), true), filter, need);
    return all.isEmpty() ? lexical(s, Queries.keyword(query, s.getIndexReader(), false), filter, need) : all;
  }

  private List<Cand> lexical(IndexSearcher s, Query q, Query filter, int need) throws IOException {
    Query fq = Queries.filtered(q, filter);
    int n = Math.max(need * 2, 20);
    while (true) {
      TopDocs td = s.search(fq, n);
      List<Cand> c = collapse(s, td.scoreDocs, need, false);
      if (c.size() >= need || td.scoreDocs.length < n || n >= MAX_FETCH) {
        return c;
      }
      n = Math.min(MAX_FETCH, n * 4);
    }
  }

  /** Ranked, collapsed nearest units by cosine, within the filter. */
  private List<Cand> vector(IndexSearcher s, float[] qv, Query filter, int need) throws IOException {
    int n = Math.max(need * 2, 20);
    while (true) {
      TopDocs td = s.search(new KnnFloatVectorQuery(Schema.VECTOR, qv, n, filter), n);
      List<Cand> c = collapse(s, td.scoreDocs, need, true);
      if (c.size() >= need || td.scoreDocs.length < n || n >= MAX_FETCH) {
        return c;
      }
      n = Math.min(MAX_FETCH, n * 4);
    }
  }

  /** Keeps the best unit of each entity (a document's sections collapse into one hit). */
  private static List<Cand> collapse(IndexSearcher s, ScoreDoc[] docs, int need, boolean cosine) throws IOException {
    LinkedHashMap<String, Cand> out = new LinkedHashMap<>();
    StoredFields stored = s.storedFields();
    Set<String> wanted = Set.of(Schema.PATH, Schema.EID);
    for (ScoreDoc sd : docs) {
      Document d = stored.document(sd.doc, wanted);
      String key = d.get(Schema.PATH) + "#" + d.get(Schema.EID);
      if (!out.containsKey(key)) {
        // A DOT_PRODUCT score is (1 + cosine) / 2 for unit vectors.
        out.put(key, new Cand(sd.doc, sd.score, key, cosine ? 2 * sd.score - 1 : null));
        if (out.size() >= need) {
          break;
        }
      }
    }
    return new ArrayList<>(out.values());
  }

  private List<Cand> fuse(List<Cand> lex, List<Cand> sem) {
    Map<String, double[]> score = new HashMap<>();
    Map<String, Cand> best = new HashMap<>();
    double w = semanticWeight;
    double[] lexNorm = normalized(lex, false);
    double[] semNorm = normalized(sem, true);
    for (int i = 0; i < lex.size(); i++) {
      Cand c = lex.get(i);
      double v = fusion == Fusion.RRF ? 1.0 / (RRF_K + i + 1) : lexNorm[i];
      score.computeIfAbsent(c.key(), k -> new double[1])[0] += (1 - w) * v;
      best.putIfAbsent(c.key(), c);
    }
    for (int i = 0; i < sem.size(); i++) {
      Cand c = sem.get(i);
      double v = fusion == Fusion.RRF ? 1.0 / (RRF_K + i + 1) : semNorm[i];
      score.computeIfAbsent(c.key(), k -> new double[1])[0] += w * v;
      // The semantic unit carries the cosine and, for a document, the section that is closest.
      best.put(c.key(), c);
    }
    List<Cand> out = new ArrayList<>(best.size());
    for (Cand c : best.values()) {
      out.add(new Cand(c.doc(), (float) score.get(c.key())[0], c.key(), c.cosine()));
    }
    out.sort(Comparator.comparingDouble((Cand c) -> -c.score()).thenComparing(Cand::key));
    return out;
  }

  /** Scores scaled to [0, 1] between the list's lowest and highest (1 when all are equal). */
  private static double[] normalized(List<Cand> list, boolean cosine) {
    double[] out = new double[list.size()];
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int i = 0; i < out.length; i++) {
      Cand c = list.get(i);
      out[i] = cosine ? c.cosine() : c.score();
      min = Math.min(min, out[i]);
      max = Math.max(max, out[i]);
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = max - min < 1e-9 ? 1 : (out[i] - min) / (max - min);
    }
    return out;
  }

  private RecallResult.Hit hit(IndexSearcher s, Cand c, float[] qv) throws IOException {
    Document d = s.storedFields().document(c.doc());
    Float cos = c.cosine();
    if (cos == null && qv != null) {
      float[] v = vectorOf(s, c.doc());
      if (v != null) {
        float dot = 0;
        for (int i = 0; i < v.length; i++) {
          dot += v[i] * qv[i];
        }
        cos = dot;
      }
    }
    // Units keep no revision of their own (an unchanged unit is not rewritten by a commit): the
    // document's identity is what the index holds for the whole document.
    String path = d.get(Schema.PATH);
    Entry e = entries.get(path);
    DocSnapshot now = e == null ? vault.peek(path) : null;
    return new RecallResult.Hit(
        path,
        d.get(Schema.EID),
        d.get(Schema.TYPE),
        d.get(Schema.STITLE),
        d.get(Schema.STATUS),
        d.get(Schema.CONTEXT),
        cos,
        e != null ? e.rev() : now == null ? 0 : now.rev(),
        e != null ? e.hash() : now == null ? null : now.hash());
  }

  private static float[] vectorOf(IndexSearcher s, int doc) throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
    if (values == null) {
      return null;
    }
    int local = doc - leaf.docBase;
    return values.advance(local) == local ? values.vectorValue().clone() : null;
  }

  // ------------------------------------------------------------------ lifecycle

  /** Waits until nothing is pending or {@code maxMs} passed; for tests and the benchmark. */
  boolean awaitIdle(long maxMs, boolean vectorsToo) throws InterruptedException, IOException {
    long end = System.currentTimeMillis() + maxMs;
    while (System.currentTimeMillis() < end) {
      boolean idle = vault.scanComplete() && pendingFiles() == 0 && rebuildQueue.size() == 0;
      if (idle && vectorsToo && semantic.wanted()) {
        index.refresh();
        idle = semantic.ready() && embedQueue.size() == 0 && unembedded == 0;
      }
      if (idle) {
        index.refresh();
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    rebuildQueue.wake();
    embedQueue.wake();
    synchronized (live) {
      live.notifyAll();
    }
    join(liveWriter);
    join(rebuilder);
    join(embedder);
    EmbeddingModel.awaitLoadIfStarted(java.time.Duration.ofSeconds(20));
    ticker.shutdownNow();
    searchPool.shutdown();
    try {
      searchPool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    index.close();
  }

  private static void join(Thread t) {
    try {
      t.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A queue of paths without duplicates: a path queued twice is worked on once. */
  private static final class WorkQueue {
    private final LinkedHashSet<String> items = new LinkedHashSet<>();

    synchronized void add(String path) {
      if (items.add(path)) {
        notifyAll();
      }
    }

    synchronized String take(long maxMs) throws InterruptedException {
      if (items.isEmpty()) {
        wait(maxMs);
      }
      if (items.isEmpty()) {
        return null;
      }
      var it = items.iterator();
      String p = it.next();
      it.remove();
      return p;
    }

    synchronized int size() {
      return items.size();
    }

    synchronized void clear() {
      items.clear();
    }

    synchronized void wake() {
      notifyAll();
    }
  }

  /** Recently computed vectors by chunk key, so an edit does not embed unchanged text again. */
  private static final class VectorCache {
    private final Map<String, float[]> map;

    VectorCache(int max) {
      this.map =
          new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> e) {
              return size() > max;
            }
          };
    }

    synchronized float[] get(String key) {
      return map.get(key);
    }

    synchronized void put(String key, float[] v) {
      map.put(key, v);
    }
  }
}
