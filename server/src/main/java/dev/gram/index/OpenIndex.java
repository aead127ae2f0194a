package dev.gram.index;

import dev.gram.async.Background;
import dev.gram.store.CommitListener;
import dev.gram.store.Vault;
import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.lucene.search.ReferenceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search index once its Lucene index is open: wires the parts that keep it in step ({@link
 * IndexKeeper}), embed ({@link BackgroundEmbedder}) and search ({@link RecallSearcher}), owns
 * every thread they run on, and reports its status. The parts share what the index holds of each
 * document ({@link IndexLedger}) and never start or stop a thread themselves, so that closing
 * happens in one place and in one order. {@link RecallIndex} builds one in the background and
 * stands for it meanwhile. See the package documentation for the design.
 */
final class OpenIndex implements IndexStatus, Recall, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpenIndex.class);

  private final Vault vault;
  private final LiveIndex index;
  private final SemanticState semantic;
  private final IndexLedger ledger = new IndexLedger();
  private final CommitQueue commits;
  private final IndexKeeper keeper;
  private final BackgroundEmbedder embedder;
  private final RecallSearcher searcher;
  private final ExecutorService searchPool;
  private final ScheduledExecutorService ticker;
  private final Thread liveWriter;
  private final Thread rebuilder;
  private final List<Thread> embedderThreads = new ArrayList<>();
  private volatile boolean closed;

  private OpenIndex(Vault vault, LiveIndex index, SemanticState semantic, IndexTuning tuning, Background background) {
    this.vault = vault;
    this.index = index;
    this.semantic = semantic;
    AtomicInteger n = new AtomicInteger();
    this.searchPool =
        Executors.newFixedThreadPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()),
            r -> daemon(r, "gram-recall-" + n.incrementAndGet()));
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "gram-index-progress"));
    this.commits = new CommitQueue();
    SearchActivity searches = new SearchActivity();
    KnownVectors vectors = new KnownVectors(index, semantic);
    DocumentBlocks blocks = new DocumentBlocks(index);
    this.embedder =
        new BackgroundEmbedder(vault, index, ledger, blocks, vectors, semantic, searches, background.foreground(), tuning);
    this.keeper = new IndexKeeper(vault, index, ledger, blocks, vectors, embedder, commits, tuning.rebuildDelayMs(),
        background.foreground(), tuning.yieldMaxMs());
    this.searcher =
        new RecallSearcher(vault, index, ledger, semantic, commits, searchPool, searches,
            new AutoMode(tuning.autoHybridWords(), tuning.autoQuestions()),
            new HybridFusion(tuning.fusion(), tuning.semanticWeight()));
    // The rebuild and the embedder are background work: its share of threads, at its priority.
    // The live thread is not: every recall waits for it.
    this.rebuilder = background.thread("gram-index-rebuild", keeper::rebuild);
    for (int i = 1; i <= background.threads(); i++) {
      embedderThreads.add(background.thread("gram-embed-" + i, embedder::run));
    }
    this.liveWriter = daemon(keeper::followCommits, "gram-index-live");
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Opens the Lucene index in {@code folder} (null: in memory), reads what it holds from an
   * earlier run and starts keeping it in step: {@code subscribe} is handed the listener that must
   * hear of every document the vault loads and every commit, in order.
   */
  static OpenIndex open(
      Vault vault, Path folder, SemanticState semantic, IndexTuning tuning, Background background,
      Consumer<IndexKeeper> subscribe) {
    LiveIndex li = LiveIndex.open(folder, EmbeddingModel.NAME, background);
    OpenIndex oi = new OpenIndex(vault, li, semantic, tuning, background);
    oi.start(subscribe);
    return oi;
  }

  private void start(Consumer<IndexKeeper> subscribe) {
    keeper.start(subscribe);
    index.addRefreshListener(
        new ReferenceManager.RefreshListener() {
          @Override
          public void beforeRefresh() {}

          @Override
          public void afterRefresh(boolean didRefresh) {
            if (didRefresh) {
              ledger.recountVectors(index);
            }
          }
        });
    ledger.recountVectors(index);
    embedder.queueLeftoversWhenReady();
    rebuilder.start();
    embedderThreads.forEach(Thread::start);
    liveWriter.start();
    ticker.scheduleWithFixedDelay(keeper::showProgress, 250, 250, TimeUnit.MILLISECONDS);
    ticker.scheduleWithFixedDelay(embedder::showProgress, 250, 250, TimeUnit.MILLISECONDS);
    LOG.info("search index at {}{}", index.location(), index.rebuilt() ? " (rebuilt from the vault)" : "");
  }

  @Override
  public Stats stats() {
    return ledger.stats();
  }

  @Override
  public Semantic semantic() {
    return semantic.status();
  }

  @Override
  public int unembeddedChunks() {
    return ledger.unembedded();
  }

  @Override
  public int units() {
    return ledger.units();
  }

  @Override
  public Lag lag() {
    return commits.lag();
  }

  @Override
  public Future<RecallResult> recall(RecallRequest request) {
    return searcher.recall(request);
  }

  /** Waits until nothing is pending or {@code maxMs} passed; for tests and the benchmark. */
  boolean awaitIdle(long maxMs, boolean vectorsToo) throws InterruptedException, IOException {
    long end = System.currentTimeMillis() + maxMs;
    while (System.currentTimeMillis() < end) {
      boolean idle = vault.scanComplete() && ledger.pendingFiles() == 0 && keeper.rebuildBacklog() == 0
          && commits.lag().commits() == 0;
      if (idle && vectorsToo && semantic.wanted()) {
        index.refresh();
        idle = semantic.ready() && embedder.backlog() == 0 && ledger.unembedded() == 0;
      }
      if (idle) {
        index.refresh();
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  /**
   * Stops the workers before the pools and the pools before Lucene: a thread still writing when
   * the writer closes would lose its change or fail on a closed index.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    keeper.stop();
    embedder.stop();
    join(liveWriter);
    join(rebuilder);
    embedderThreads.forEach(OpenIndex::join);
    // The process may exit right after this: not while ONNX Runtime is still loading natively.
    EmbeddingModel.awaitLoadIfStarted(Duration.ofSeconds(20));
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
}
