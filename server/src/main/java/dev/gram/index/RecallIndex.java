package dev.gram.index;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import dev.gram.store.CommitListener;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The search index of the vault, as the server holds it. Opening a Lucene index loads about 500
 * classes and reads the index's files, a few hundred milliseconds that a client's handshake does
 * not need; so {@link #open} returns at once and the {@link OpenIndex} is built on a thread of its
 * own while the transports start and answer.
 *
 * <p>Nothing the vault says meanwhile is lost: this class is the vault's listener from the
 * start, holds every change it hears in order until the index is open, then hands them to the
 * index's keeper (as if it had listened all along) and steps aside. A recall that arrives before
 * that waits for it, and takes its read-your-writes ticket only then, so it still finds every
 * write acknowledged before it arrived. Status questions are answered meanwhile from what is
 * held: every document heard of is pending.
 */
public final class RecallIndex implements IndexStatus, Recall, AutoCloseable {
  private final SemanticState semantic;
  private final HeldChanges held;
  private final CompletableFuture<OpenIndex> opened = new CompletableFuture<>();
  private final Thread opener;
  private final AtomicBoolean began = new AtomicBoolean();
  /** Counted down once someone waits for the index (a recall, a command, closing): the opening defers no longer. */
  private final CountDownLatch wanted = new CountDownLatch(1);
  private volatile OpenIndex open;
  private volatile boolean closed;

  /** Listens to {@code vault} at once; the opening waits for {@link #beginOpening()}. */
  private RecallIndex(
      Vault vault, Path folder, Supplier<CompletableFuture<EmbeddingModel.Encoder>> model, IndexTuning tuning,
      Background background) {
    // The model's future is completed from the opening thread: asking for the model here would
    // load the embedding library's classes on the caller's thread, before the handshake.
    CompletableFuture<EmbeddingModel.Encoder> encoder = new CompletableFuture<>();
    this.held = new HeldChanges(() -> !vault.scanComplete());
    this.semantic = model == null ? SemanticState.off() : SemanticState.probing(encoder);
    this.opener =
        new Thread(() -> openNow(vault, folder, model, encoder, tuning, background), "gram-index-open");
    this.opener.setDaemon(true);
    vault.addListener(held);
  }

  /**
   * Starts opening the index of {@code vault} in {@code folder} (null: in memory) and returns at
   * once. Must be called before {@link Vault#start()}: the index hears of every document the vault
   * loads.
   */
  public static RecallIndex open(Vault vault, Path folder, boolean semanticOn) {
    RecallIndex ri = openLater(vault, folder, semanticOn);
    ri.beginOpening();
    return ri;
  }

  /**
   * As {@link #open(Vault, Path, boolean)}, but the index (and the embedding model) start opening
   * only at {@link #beginOpening()} or at the first recall: the server lets its transports answer
   * a client's handshake first, since on a machine of two cores the opening's class loading and
   * the model's native loading delayed that answer by about a third.
   */
  public static RecallIndex openLater(Vault vault, Path folder, boolean semanticOn) {
    return openLater(vault, folder, semanticOn, Background.standalone());
  }

  /**
   * As {@link #openLater(Vault, Path, boolean)}; embedding, the rebuild and Lucene's merges run as
   * {@code background} work: its share of threads, yielding to its foreground.
   */
  public static RecallIndex openLater(Vault vault, Path folder, boolean semanticOn, Background background) {
    return new RecallIndex(vault, folder, semanticOn ? EmbeddingModel::shared : null, IndexTuning.defaults(),
        background);
  }

  /** As {@link #open(Vault, Path, boolean)}, with the model to probe ({@code null}: off). */
  static RecallIndex open(Vault vault, Path folder, Supplier<CompletableFuture<EmbeddingModel.Encoder>> model) {
    return open(vault, folder, model, IndexTuning.defaults());
  }

  /** As {@link #open(Vault, Path, Supplier)}, with other measured choices than the defaults. */
  static RecallIndex open(
      Vault vault, Path folder, Supplier<CompletableFuture<EmbeddingModel.Encoder>> model, IndexTuning tuning) {
    return open(vault, folder, model, tuning, Background.standalone());
  }

  /** As {@link #open(Vault, Path, Supplier, IndexTuning)}, its background work yielding as {@code background} says. */
  static RecallIndex open(
      Vault vault, Path folder, Supplier<CompletableFuture<EmbeddingModel.Encoder>> model, IndexTuning tuning,
      Background background) {
    RecallIndex ri = new RecallIndex(vault, folder, model, tuning, background);
    ri.beginOpening();
    return ri;
  }

  private void openNow(
      Vault vault,
      Path folder,
      Supplier<CompletableFuture<EmbeddingModel.Encoder>> model,
      CompletableFuture<EmbeddingModel.Encoder> encoder,
      IndexTuning tuning,
      Background background) {
    try {
      if (model != null) {
        // Loading ONNX Runtime and the model is a second or two of CPU that no client waits for:
        // asked from a background thread, the loading thread it starts inherits its priority.
        // Joined at once (it only starts the loading): a close that follows must find the load
        // begun, or it might exit while ONNX Runtime loads.
        Thread start = background.thread("gram-embedding-start", () -> model.get().whenComplete((enc, err) -> {
          if (err == null) {
            encoder.complete(enc);
          } else {
            encoder.completeExceptionally(err);
          }
        }));
        start.start();
        start.join();
      }
      // The model loads at background priority; opening Lucene would not, so it waits.
      deferWhileAgentsCall(background.foreground());
      if (closed) {
        opened.completeExceptionally(new IllegalStateException("the search index is closed"));
        return;
      }
      OpenIndex oi = OpenIndex.open(vault, folder, semantic, tuning, background, held::handTo);
      open = oi;
      opened.complete(oi);
    } catch (Throwable t) {
      // The server keeps serving reads and writes; every recall answers with this failure.
      LoggerFactory.getLogger(RecallIndex.class).error("the search index could not be opened", t);
      opened.completeExceptionally(t);
    }
  }

  /**
   * How long the opening may wait for a pause in the agents' calls. An agent runtime lists the
   * tools and calls at once: opening Lucene and loading the model (half a second of class loading,
   * then a second or two of native loading) then ran beside its first calls on a machine of two
   * cores.
   */
  static final long OPEN_DEFER_MS = 1_000;

  /** Waits while tool calls are in flight, at most {@link #OPEN_DEFER_MS}, unless the index is wanted meanwhile. */
  private void deferWhileAgentsCall(Foreground agents) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OPEN_DEFER_MS);
    try {
      while (agents.busy() && System.nanoTime() < end && !wanted.await(5, TimeUnit.MILLISECONDS)) {
        // waiting for a pause, for someone who needs the index, or for the limit
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts opening the index on its own thread, once; later calls do nothing. */
  public void beginOpening() {
    if (began.compareAndSet(false, true)) {
      opener.start();
    }
  }

  /** Waits until the index is open (the command line, which reads it at once). */
  public void awaitOpen() {
    wanted.countDown();
    beginOpening();
    try {
      opened.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the search index could not be opened", e.getCause());
    }
  }

  @Override
  public Stats stats() {
    OpenIndex o = open;
    return o != null ? o.stats() : new Stats(0, held.documents(), 0, 0);
  }

  @Override
  public Semantic semantic() {
    return semantic.status();
  }

  @Override
  public int unembeddedChunks() {
    OpenIndex o = open;
    return o != null ? o.unembeddedChunks() : 0;
  }

  @Override
  public int units() {
    OpenIndex o = open;
    return o != null ? o.units() : 0;
  }

  @Override
  public Lag lag() {
    OpenIndex o = open;
    return o != null ? o.lag() : held.lag();
  }

  @Override
  public Future<RecallResult> recall(RecallRequest request) {
    OpenIndex o = open;
    if (o != null) {
      return o.recall(request);
    }
    wanted.countDown();
    beginOpening();
    // Called again on the caller's context once the index is open, so that the ticket is taken
    // after the held changes reached the index and the answer comes back where it was asked.
    Context ctx = Vertx.currentContext();
    Promise<RecallResult> answer = Promise.promise();
    opened.whenComplete((oi, err) -> {
      Runnable go = () -> {
        if (err != null) {
          answer.fail(err);
        } else {
          oi.recall(request).onComplete(answer);
        }
      };
      if (ctx == null) {
        go.run();
      } else {
        ctx.runOnContext(v -> go.run());
      }
    });
    return answer.future();
  }

  /** Waits until nothing is pending or {@code maxMs} passed; for tests and the benchmark. */
  boolean awaitIdle(long maxMs, boolean vectorsToo) throws InterruptedException, IOException {
    long start = System.currentTimeMillis();
    wanted.countDown();
    beginOpening();
    try {
      opened.get(maxMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return false;
    }
    return open.awaitIdle(Math.max(0, maxMs - (System.currentTimeMillis() - start)), vectorsToo);
  }

  /** Lets the opening finish (a half-open Lucene index holds its lock), then closes the index. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    wanted.countDown();
    if (began.compareAndSet(false, true)) {
      // Never begun: nothing to close, and nothing may begin now.
      opened.completeExceptionally(new IllegalStateException("the search index is closed"));
      return;
    }
    try {
      opener.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    OpenIndex o = open;
    if (o != null) {
      o.close();
    }
  }

  /**
   * The vault's listener until the index is open: every change in the order heard (per document,
   * the order of its commits), then {@link #handTo} replays them into the keeper and forwards what
   * comes after. Kept whole rather than merged per document: the keeper tells a document's first
   * sighting (indexed in the background) from a later commit (which a recall waits for).
   */
  private static final class HeldChanges implements CommitListener {
    private record Change(String path, DocSnapshot snapshot, boolean duringScan) {}

    private final java.util.function.BooleanSupplier scanning;

    private List<Change> changes = new ArrayList<>();
    private final HashSet<String> paths = new HashSet<>();
    /** Changes the keeper will take as commits: all but a document's first sighting during the scan. */
    private int commits;
    private long oldestCommitNanos = -1;
    private volatile IndexKeeper target;

    HeldChanges(java.util.function.BooleanSupplier scanning) {
      this.scanning = scanning;
    }

    @Override
    public void onChange(String path, DocSnapshot snapshot) {
      IndexKeeper t = target;
      if (t == null) {
        synchronized (this) {
          if (target == null) {
            // When it was heard decides how the keeper takes it, not when it is replayed.
            boolean duringScan = scanning.getAsBoolean();
            changes.add(new Change(path, snapshot, duringScan));
            // A first sighting after the scan with nothing there is a create's lookup, not a change.
            if (!paths.add(path) || (!duringScan && snapshot != null)) {
              commits++;
              if (oldestCommitNanos < 0) {
                oldestCommitNanos = System.nanoTime();
              }
            }
            return;
          }
        }
        t = target;
      }
      t.onChange(path, snapshot);
    }

    /** Held like any change until the keeper takes over; then the keeper's to tell apart. */
    @Override
    public void onFollowed(String path, DocSnapshot snapshot) {
      IndexKeeper t = target;
      if (t != null) {
        t.onFollowed(path, snapshot);
      } else {
        onChange(path, snapshot);
      }
    }

    /**
     * Replays what was held into {@code keeper} and forwards every later change to it. Under the
     * lock: a change heard during the replay waits for it, so each document's order holds.
     */
    synchronized void handTo(IndexKeeper keeper) {
      for (Change c : changes) {
        keeper.heard(c.path(), c.snapshot(), c.duringScan(), false);
      }
      changes = null;
      paths.clear();
      target = keeper;
    }

    synchronized int documents() {
      return paths.size();
    }

    /** As the keeper counts lag: acknowledged commits not yet searchable, not documents loading. */
    synchronized Lag lag() {
      if (changes == null || commits == 0) {
        return Lag.NONE;
      }
      return new Lag(commits, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - oldestCommitNanos));
    }
  }
}
