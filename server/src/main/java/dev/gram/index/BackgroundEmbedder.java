package dev.gram.index;

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
 * Gives indexed units their vectors, on one background thread ({@link #run}). Never on an event
 * loop and never inside a write: a commit indexes its text at once and queues its document here.
 * The embedder computes only the chunks whose text has no vector yet ({@link KnownVectors}),
 * outside every lock, then writes the block again if the document has not changed meanwhile (if
 * it has, the change queued it again).
 *
 * <p>Computing vectors takes a whole core, and agents searching should not queue behind it: before
 * each batch the embedder waits while a recall is running or ended less than {@code yieldQuietMs}
 * ago, but at most {@code yieldMaxMs}, so a steady stream of searches slows embedding down and
 * never stops it.
 */
final class BackgroundEmbedder {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundEmbedder.class);

  private final Vault vault;
  private final LiveIndex index;
  private final IndexLedger ledger;
  private final DocumentBlocks blocks;
  private final KnownVectors vectors;
  private final SemanticState semantic;
  private final SearchActivity searches;
  private final int batch;
  private final long yieldQuietNanos;
  private final long yieldMaxNanos;
  private final PathQueue queue = new PathQueue();
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
      int batch,
      long yieldQuietMs,
      long yieldMaxMs) {
    this.vault = vault;
    this.index = index;
    this.ledger = ledger;
    this.blocks = blocks;
    this.vectors = vectors;
    this.semantic = semantic;
    this.searches = searches;
    this.batch = batch;
    this.yieldQuietNanos = TimeUnit.MILLISECONDS.toNanos(yieldQuietMs);
    this.yieldMaxNanos = TimeUnit.MILLISECONDS.toNanos(yieldMaxMs);
  }

  /** Queues a document some of whose units lack a vector; nothing when semantic search is off or failed. */
  void queue(String path) {
    if (semantic.wanted()) {
      queue.add(path);
    }
  }

  /** Documents waiting to be embedded. */
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

  /** The embedder thread's loop, until {@link #stop}. */
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
        }
        progress.step();
      }
    }
  }

  void stop() {
    closed = true;
    queue.wake();
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
    Map<String, float[]> have = vectors.stored(path);
    Map<String, String> missing = new LinkedHashMap<>();
    for (DocMapper.Unit u : DocMapper.units(s.state())) {
      if (!have.containsKey(u.chunkKey())) {
        float[] recent = vectors.recent(u.chunkKey());
        if (recent != null) {
          have.put(u.chunkKey(), recent);
        } else {
          missing.put(u.chunkKey(), u.embedText());
        }
      }
    }
    List<Map.Entry<String, String>> todo = new ArrayList<>(missing.entrySet());
    for (int i = 0; i < todo.size(); i += batch) {
      if (closed) {
        return;
      }
      yieldToSearches();
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

  private void yieldToSearches() {
    long start = System.nanoTime();
    while (!closed && System.nanoTime() - start < yieldMaxNanos) {
      if (!searches.busy(yieldQuietNanos)) {
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
}
