package dev.gram.index;

import dev.gram.async.Foreground;
import dev.gram.store.CommitListener;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the index in step with the vault. At start it takes what the index holds from an earlier
 * run as unverified; as the vault loads, a document whose fingerprint matches costs nothing and
 * any other one goes to the background rebuild ({@link #rebuild}); what the vault no longer has is
 * removed once it has finished loading. After that, every new state of a document (a commit, an
 * edit by another program) goes through the {@link CommitQueue} to the live thread ({@link
 * #followCommits}), which recalls wait for.
 *
 * <p>Every change to a document's block holds that path's lock, and the rebuild writes only what
 * is still the vault's current state, so a slow background write never overwrites a newer commit.
 * A document that cannot be indexed is counted as failed and never stops the others.
 */
final class IndexKeeper implements CommitListener {
  private static final Logger LOG = LoggerFactory.getLogger(IndexKeeper.class);

  private final Vault vault;
  private final LiveIndex index;
  private final IndexLedger ledger;
  private final DocumentBlocks blocks;
  private final KnownVectors vectors;
  private final BackgroundEmbedder embedder;
  private final CommitQueue commits;
  private final long rebuildDelayMs;
  private final Foreground foreground;
  private final long yieldMaxMs;
  /** Documents whose first state has been seen: that one may be the vault loading it. */
  private final Set<String> sighted = ConcurrentHashMap.newKeySet();
  private final PathQueue rebuildQueue = new PathQueue();
  private final Progress progress;
  /** True while the rebuild thread works on a document it took from the queue. */
  private volatile boolean rebuilding;
  private volatile boolean closed;

  /**
   * @param rebuildDelayMs a pause before each document of the rebuild, for tests that watch it
   * @param foreground the agents' calls the rebuild gives way to, at most {@code yieldMaxMs} per document
   */
  IndexKeeper(
      Vault vault,
      LiveIndex index,
      IndexLedger ledger,
      DocumentBlocks blocks,
      KnownVectors vectors,
      BackgroundEmbedder embedder,
      CommitQueue commits,
      long rebuildDelayMs,
      Foreground foreground,
      long yieldMaxMs) {
    this.vault = vault;
    this.index = index;
    this.ledger = ledger;
    this.blocks = blocks;
    this.vectors = vectors;
    this.embedder = embedder;
    this.commits = commits;
    this.rebuildDelayMs = rebuildDelayMs;
    this.foreground = foreground;
    this.yieldMaxMs = yieldMaxMs;
    this.progress = new Progress(() -> rebuildQueue.size() + (rebuilding ? 1 : 0));
  }

  /**
   * Reads what the index holds from an earlier run and starts listening: {@code subscribe} adds
   * this keeper where it hears of every document the vault loads, from the first (the vault's
   * listeners before {@link Vault#start()}, or what {@link RecallIndex} held back meanwhile).
   */
  void start(java.util.function.Consumer<IndexKeeper> subscribe) {
    try {
      for (Map.Entry<String, LiveIndex.Fingerprint> e : index.fingerprints().entrySet()) {
        ledger.set(e.getKey(), new IndexLedger.Entry(IndexLedger.Status.UNVERIFIED, e.getValue().rev(), e.getValue().hash()));
      }
    } catch (IOException e) {
      LOG.warn("cannot read the index fingerprints: {}", e.toString());
    }
    subscribe.accept(this);
    // What the index holds from an earlier run and the vault no longer has: removed.
    vault.scanned().onSuccess(v -> ledger.unverified().forEach(rebuildQueue::add));
  }

  /**
   * Called on the document's actor thread for every new state, before a write's receipt is
   * returned; see {@link #heard}.
   */
  @Override
  public void onChange(String path, DocSnapshot snapshot) {
    heard(path, snapshot, !vault.scanComplete(), false);
  }

  /** Another node's commit: it may wait out {@link CommitQueue#FOLLOWED_LAG_MS} unless a recall asks. */
  @Override
  public void onFollowed(String path, DocSnapshot snapshot) {
    heard(path, snapshot, !vault.scanComplete(), true);
  }

  /**
   * A new state of a document. The first state seen of a document during the vault's start-up
   * scan, when the index does not already hold it at that revision, goes to the background
   * rebuild: the vault is loading it, and no one waits for it. Every other state is a commit, an
   * edit by another program, or a file that appeared after the scan, and is queued for the live
   * thread, whose progress a recall waits for: the rebuild gives way to the agents' calls, so a
   * file created beside a running server would otherwise stay unsearchable while they go on.
   *
   * @param duringScan whether the state was heard before the vault's start-up scan ended
   * @param followed whether another node committed it
   */
  void heard(String path, DocSnapshot snapshot, boolean duringScan, boolean followed) {
    if (closed) {
      return;
    }
    boolean first = sighted.add(path);
    if (first && duringScan && snapshot != null && snapshot.state() != null) {
      ReentrantLock lock = index.lockFor(path);
      lock.lock();
      try {
        IndexLedger.Entry e = ledger.get(path);
        if (e != null && e.matches(snapshot)) {
          ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.INDEXED, e.rev(), e.hash()));
        } else {
          ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.PENDING, snapshot.rev(), snapshot.hash()));
          rebuildQueue.add(path);
        }
      } finally {
        lock.unlock();
      }
      return;
    }
    if (followed) {
      commits.putFollowed(path, snapshot);
    } else {
      commits.put(path, snapshot);
    }
  }

  /**
   * How long the rebuild works before it gives way to the agents' calls. Giving way before every
   * document kept a vault of a few documents unsearchable (every recall partial) for as long as an
   * agent kept calling, at up to {@code yieldMaxMs} a document; a slice lets a small rebuild finish
   * at once and still gives a large one's CPU back between slices.
   */
  static final long REBUILD_SLICE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(250);

  /** The live thread: indexes queued commits, newest state per document, and lets waiting recalls go. */
  void followCommits() {
    while (!closed) {
      CommitQueue.Batch batch;
      try {
        batch = commits.take();
      } catch (InterruptedException e) {
        return;
      }
      for (Map.Entry<String, DocSnapshot> e : batch.commits().entrySet()) {
        apply(e.getKey(), e.getValue(), true);
      }
      commits.applied(batch.upTo());
    }
  }

  /**
   * The rebuild thread: indexes, one at a time, what the vault loaded and the index lacks. Few
   * recalls wait for it (one waits for a rebuild of a few documents; during a larger one it says
   * it is partial), so after each slice of work ({@link #REBUILD_SLICE_NANOS}) it gives way to
   * tool calls in flight.
   */
  void rebuild() {
    long worked = 0; // since the last time it gave way
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
      if (worked > REBUILD_SLICE_NANOS) {
        try {
          foreground.awaitQuiet(yieldMaxMs);
        } catch (InterruptedException e) {
          return;
        }
        worked = 0;
      }
      if (closed) {
        return;
      }
      rebuilding = true;
      long began = System.nanoTime();
      try {
        apply(path, vault.peek(path), false);
      } finally {
        rebuilding = false;
        worked += System.nanoTime() - began;
      }
      progress.step();
    }
  }

  /** Documents waiting for the rebuild. */
  int rebuildBacklog() {
    return rebuildQueue.size();
  }

  /** Shows the rebuild's progress; called periodically. */
  void showProgress() {
    progress.tick();
  }

  /** Stops taking changes and lets the live and rebuild threads end. */
  void stop() {
    closed = true;
    rebuildQueue.wake();
    commits.close();
  }

  /**
   * Brings one document's block up to date with {@code s} (null: the document is gone). A
   * {@code live} change is one a recall waits for; the rebuild's are only noted, so a recall can
   * say it is partial until it sees them.
   */
  private void apply(String path, DocSnapshot s, boolean live) {
    ReentrantLock lock = index.lockFor(path);
    lock.lock();
    try {
      IndexLedger.Entry e = ledger.get(path);
      if (s == null) {
        if (e != null) {
          noteSeq(blocks.remove(path), live);
          ledger.remove(path);
        }
        blocks.forget(path);
        return;
      }
      if (s.state() == null) {
        blocks.forget(path);
        if (e == null || e.status() != IndexLedger.Status.FAILED) {
          noteSeq(blocks.remove(path), live);
          ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.FAILED, s.rev(), s.hash()));
          LOG.warn("{} cannot be indexed: {}", path, s.failure());
        }
        return;
      }
      if (e != null
          && (e.status() == IndexLedger.Status.INDEXED || e.status() == IndexLedger.Status.UNVERIFIED)
          && e.matches(s)) {
        if (e.status() == IndexLedger.Status.UNVERIFIED) {
          ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.INDEXED, e.rev(), e.hash()));
        }
        return;
      }
      DocumentBlocks.Written w = live ? blocks.replaceChanged(path, s, vectors.recentOnly()) : null;
      if (w == null) {
        w = blocks.replace(path, s, vectors.forDocument(path));
      }
      noteSeq(w.seq(), live);
      ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.INDEXED, s.rev(), s.hash()));
      if (w.missingVectors() > 0) {
        embedder.queue(path);
      }
    } catch (IOException | RuntimeException ex) {
      LOG.error("indexing {} failed", path, ex);
      ledger.set(path, new IndexLedger.Entry(IndexLedger.Status.FAILED, s == null ? 0 : s.rev(), s == null ? null : s.hash()));
    } finally {
      lock.unlock();
    }
  }

  private void noteSeq(long seq, boolean live) {
    if (live) {
      index.markLive(seq);
    } else {
      index.markBackground(seq);
    }
  }
}
