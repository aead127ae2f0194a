package dev.gram.index;

import dev.gram.async.Foreground;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives indexed units their vectors, on the background share's threads ({@link #run}, one call
 * per thread). Never on an event loop and never inside a write: a commit indexes its text at once
 * and queues its document here.
 *
 * <p>What it computes is as little as it can be. A document is taken once it has been quiet for a
 * moment ({@link QuietQueue}), so a document patched many times a second is embedded a few times
 * a second, at its latest state. Only the units written without a vector are embedded, and only
 * chunks whose text has no vector yet ({@link KnownVectors}); those units alone are written again
 * ({@link DocumentBlocks#addVectors}). A document indexed by an earlier run, whose unembedded units
 * this process does not know, is done whole once: the vectors it holds are read back and its
 * block written again if it has not changed meanwhile (if it has, the change queued it again).
 *
 * <p>Computing vectors takes a whole core, and agents should not queue behind it: its threads run
 * at the lowest CPU priority, and before each batch the embedder waits while tool calls are in
 * flight ({@link Foreground}) or recalls are running or ended less than {@code yieldQuietMs} ago,
 * but at most {@code yieldMaxMs}, so a steady stream of calls slows embedding down and never
 * stops it.
 */
final class BackgroundEmbedder {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundEmbedder.class);

  /** A document is embedded once no commit has changed it for this long... */
  static final long QUIET_MS = 200;
  /** ...or once it has waited this long: a document written without pause, twice a second. */
  static final long MAX_DELAY_MS = 500;

  private final Vault vault;
  private final LiveIndex index;
  private final IndexLedger ledger;
  private final DocumentBlocks blocks;
  private final KnownVectors vectors;
  private final SemanticState semantic;
  private final SearchActivity searches;
  private final Foreground foreground;
  private final int batch;
  private final long yieldQuietNanos;
  private final long yieldMaxMs;
  private final QuietQueue queue;
  /** The embedding pass's own progress line: a large vault takes minutes, and says so. */
  private final Progress progress = new Progress(this::backlog, "embedding", "embedded vectors of");
  private volatile boolean closed;

  BackgroundEmbedder(
      Vault vault,
      LiveIndex index,
      IndexLedger ledger,
      DocumentBlocks blocks,
      KnownVectors vectors,
      SemanticState semantic,
      SearchActivity searches,
      Foreground foreground,
      IndexTuning tuning) {
    this.vault = vault;
    this.index = index;
    this.ledger = ledger;
    this.blocks = blocks;
    this.vectors = vectors;
    this.semantic = semantic;
    this.searches = searches;
    this.foreground = foreground;
    this.batch = tuning.embedBatch();
    this.yieldQuietNanos = TimeUnit.MILLISECONDS.toNanos(tuning.yieldQuietMs());
    this.yieldMaxMs = tuning.yieldMaxMs();
    this.queue = new QuietQueue(QUIET_MS, MAX_DELAY_MS);
  }

  /** Queues a document some of whose units lack a vector; nothing when semantic search is off or failed. */
  void queue(String path) {
    if (semantic.wanted()) {
      queue.add(path);
    }
  }

  /** Documents waiting to be embedded, or being embedded. */
  int backlog() {
    return queue.size();
  }

  /** Once the model is ready, queues the documents an earlier run indexed without every vector. */
  void queueLeftoversWhenReady() {
    if (!semantic.wanted()) {
      return;
    }
    semantic.whenReady()
        .thenRun(
            () -> {
              try {
                for (String p : index.pathsMissingVectors()) {
                  queue.add(p);
                }
              } catch (IOException | RuntimeException e) {
                LOG.warn("cannot list what is left to embed: {}", e.toString());
              }
            });
  }

  /** One embedding thread's loop, until {@link #stop}. */
  void run() {
    while (!closed) {
      if (!semantic.wanted()) {
        queue.clear();
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
        path = queue.take(200);
      } catch (InterruptedException e) {
        return;
      }
      if (path != null) {
        try {
          embed(path, enc);
        } catch (IOException | RuntimeException e) {
          LOG.warn("embedding {} failed: {}", path, e.toString());
        } finally {
          queue.done(path);
        }
        progress.step();
      }
    }
  }

  void stop() {
    closed = true;
    queue.close();
  }

  /** Shows the embedding pass's progress; called periodically. */
  void showProgress() {
    progress.tick();
  }

  private void embed(String path, EmbeddingModel.Encoder enc) throws IOException {
    DocSnapshot s = vault.peek(path);
    IndexLedger.Entry e = ledger.get(path);
    if (s == null || s.state() == null || e == null || e.status() != IndexLedger.Status.INDEXED || !e.matches(s)) {
      return;
    }
    Map<String, DocumentBlocks.Unembedded> known;
    ReentrantLock lock = index.lockFor(path);
    lock.lock();
    try {
      known = blocks.unembedded(path);
    } finally {
      lock.unlock();
    }
    if (known == null) {
      embedWhole(path, s, enc);
      return;
    }
    if (known.isEmpty()) {
      return;
    }
    Map<String, String> missing = new LinkedHashMap<>();
    Map<String, float[]> have = new java.util.HashMap<>();
    for (DocumentBlocks.Unembedded u : known.values()) {
      recentOrMissing(u.chunkKey(), u.embedText(), have, missing);
    }
    if (!compute(missing, have, enc)) {
      return;
    }
    lock.lock();
    try {
      // Units rewritten meanwhile by a commit are no longer the ones computed for: those keep
      // their place in the map only if their chunk is unchanged, and then their vector is here.
      blocks.addVectors(path, have::get);
    } finally {
      lock.unlock();
    }
  }

  /** A document whose unembedded units are not known: its whole block, with every vector. */
  private void embedWhole(String path, DocSnapshot s, EmbeddingModel.Encoder enc) throws IOException {
    Map<String, float[]> have = vectors.stored(path);
    Map<String, String> missing = new LinkedHashMap<>();
    for (DocUnits.Unit u : DocUnits.units(s.state())) {
      if (!have.containsKey(u.chunkKey())) {
        recentOrMissing(u.chunkKey(), u.embedText(), have, missing);
      }
    }
    if (!compute(missing, have, enc)) {
      return;
    }
    ReentrantLock lock = index.lockFor(path);
    lock.lock();
    try {
      DocSnapshot now = vault.peek(path);
      IndexLedger.Entry en = ledger.get(path);
      if (now != null && now.state() != null && now.rev() == s.rev() && Objects.equals(now.hash(), s.hash())
          && en != null && en.status() == IndexLedger.Status.INDEXED && en.matches(s)) {
        // Not a live change (no reader waits for vectors) nor a rebuild one (a recall is not
        // partial for want of them: it reports unembeddedChunks instead).
        blocks.replace(path, s, have::get);
      }
    } finally {
      lock.unlock();
    }
  }

  /** A chunk's vector from the recent ones into {@code have}, or its text into {@code missing}. */
  private void recentOrMissing(String chunkKey, String text, Map<String, float[]> have, Map<String, String> missing) {
    float[] recent = vectors.recent(chunkKey);
    if (recent != null) {
      have.put(chunkKey, recent);
    } else {
      missing.put(chunkKey, text);
    }
  }

  /**
   * Computes the vectors of {@code missing} (chunk key → text) into {@code have}, a batch at a
   * time, giving way to the agents before each batch. False when stopped on the way.
   */
  private boolean compute(Map<String, String> missing, Map<String, float[]> have, EmbeddingModel.Encoder enc) {
    List<Map.Entry<String, String>> todo = new ArrayList<>(missing.entrySet());
    for (int i = 0; i < todo.size(); i += batch) {
      if (closed) {
        return false;
      }
      yieldToForeground();
      List<Map.Entry<String, String>> part = todo.subList(i, Math.min(todo.size(), i + batch));
      List<String> texts = new ArrayList<>(part.size());
      for (Map.Entry<String, String> b : part) {
        texts.add(b.getValue());
      }
      float[][] computed = enc.embed(texts);
      for (int j = 0; j < part.size(); j++) {
        have.put(part.get(j).getKey(), computed[j]);
        vectors.remember(part.get(j).getKey(), computed[j]);
      }
    }
    return !closed;
  }

  private void yieldToForeground() {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(yieldMaxMs);
    try {
      while (!closed) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        if (left <= 0) {
          return;
        }
        if (foreground.busy()) {
          foreground.awaitQuiet(left);
        } else if (searches.busy(yieldQuietNanos)) {
          Thread.sleep(5);
        } else {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
