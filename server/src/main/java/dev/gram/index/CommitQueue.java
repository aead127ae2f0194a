package dev.gram.index;

import dev.gram.store.DocSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Commits waiting for the index's live thread: the newest state per document, and a count of
 * every commit queued, which is the ticket a recall waits for.
 *
 * <p>This is why a recall waits twice. A commit's receipt is returned once its state is queued
 * here, before Lucene has seen it: the receipt never waits for analysis, and many commits to one
 * document meanwhile cost one indexing of its latest state. A commit still in this queue has no
 * Lucene sequence number yet, so Lucene's own wait ({@code
 * ControlledRealTimeReopenThread.waitForGeneration}, behind {@link LiveIndex#awaitVisible}) cannot
 * cover it. A recall therefore takes a {@link #ticket} when it arrives, {@link #awaitApplied
 * waits} until the live thread has handed every commit before it to Lucene, and only then waits
 * for Lucene to make them searchable. Doing without this wait would mean writing to Lucene on the
 * document's actor thread before the receipt, which is what this queue exists to avoid.
 *
 * <p>Revisions another node committed ({@link #putFollowed}) may wait up to {@link
 * #FOLLOWED_LAG_MS} before the live thread takes them, unless a recall waits for them or a commit
 * of this node is queued: a cluster's every node indexes every revision, and under a stream of
 * writes to the same documents this lets each node index a document once for many of its owner's
 * commits. A recall still finds every revision whose receipt was returned before it arrived: it
 * waits for its ticket as before, and its waiting makes the live thread take them at once.
 */
final class CommitQueue {
  /** Commits taken together, and the ticket the live thread has reached once they are applied. */
  record Batch(Map<String, DocSnapshot> commits, long upTo) {}

  /** How long a revision followed from another node may wait for the live thread when nobody asks. */
  static final long FOLLOWED_LAG_MS = 500;

  private final long followedLagMs;
  private final Map<String, DocSnapshot> waiting = new LinkedHashMap<>();
  private long queued;
  /** {@link #queued} when the live thread last took the waiting commits. */
  private long taken;
  /** The highest ticket a recall waits for: above {@link #taken}, the live thread takes at once. */
  private long wanted;
  /** A commit of this node waits: it is taken at once. */
  private boolean ownWaiting;
  /** When the oldest followed revision still waiting was queued (nanoTime), or -1. */
  private long followedSince = -1;
  private long applied;
  private boolean closed;
  /** When the oldest commit not yet handed to Lucene was queued (nanoTime), or -1 when none is. */
  private long oldestSince = -1;
  /** {@link #queued} when {@link #oldestSince} was set: the commits after it are younger. */
  private long oldestTicket;

  CommitQueue() {
    this(FOLLOWED_LAG_MS);
  }

  /** @param followedLagMs how long a followed revision may wait when nobody asks for it */
  CommitQueue(long followedLagMs) {
    this.followedLagMs = followedLagMs;
  }

  /**
   * Queues a document's new state ({@code null}: the document is gone), replacing one of the same
   * document still waiting. Called on the document's actor thread: never blocks for long.
   */
  synchronized void put(String path, DocSnapshot snapshot) {
    ownWaiting = true;
    enqueue(path, snapshot);
    notifyAll();
  }

  /**
   * Queues a document's new state that another node committed: the live thread takes it within
   * {@link #FOLLOWED_LAG_MS}, or at once when a recall waits or a commit of this node is queued.
   */
  synchronized void putFollowed(String path, DocSnapshot snapshot) {
    if (followedSince < 0) {
      followedSince = System.nanoTime();
    }
    // No wake-up: the live thread looks again within its lag (or its idle wait, shorter).
    enqueue(path, snapshot);
  }

  private void enqueue(String path, DocSnapshot snapshot) {
    // Moved to the end: the document is indexed after those committed before its latest state.
    waiting.remove(path);
    waiting.put(path, snapshot);
    queued++;
    if (oldestSince < 0) {
      oldestSince = System.nanoTime();
      oldestTicket = queued;
    }
  }

  /** The ticket of a recall arriving now: every commit whose receipt was returned is before it. */
  synchronized long ticket() {
    return queued;
  }

  /** Takes every waiting commit, blocking while there is none, until {@link #close}. */
  synchronized Batch take() throws InterruptedException {
    while (!closed) {
      if (waiting.isEmpty()) {
        wait(200);
        continue;
      }
      if (ownWaiting || wanted > taken || followedSince < 0) {
        break;
      }
      long left = followedLagMs - (System.nanoTime() - followedSince) / 1_000_000L;
      if (left <= 0) {
        break;
      }
      wait(left);
    }
    Batch b = new Batch(new LinkedHashMap<>(waiting), queued);
    waiting.clear();
    taken = queued;
    ownWaiting = false;
    followedSince = -1;
    return b;
  }

  /** The live thread has handed everything up to {@code upTo} to Lucene. */
  synchronized void applied(long upTo) {
    applied = Math.max(applied, upTo);
    if (oldestSince >= 0 && applied >= oldestTicket) {
      // The oldest is in; what is left (if anything) was queued later, and counts from now on.
      oldestSince = applied < queued ? System.nanoTime() : -1;
      oldestTicket = queued;
    }
    notifyAll();
  }

  /** Commits queued but not yet handed to Lucene, and how long the oldest of them has waited. */
  synchronized IndexStatus.Lag lag() {
    long behind = queued - applied;
    if (behind <= 0 || oldestSince < 0) {
      return IndexStatus.Lag.NONE;
    }
    return new IndexStatus.Lag(behind, (System.nanoTime() - oldestSince) / 1_000_000L);
  }

  /**
   * Waits until every commit queued before {@code ticket} was taken is in the index, at most
   * {@code maxMs}: past that (a stuck live thread) the recall answers with what is searchable.
   */
  synchronized void awaitApplied(long ticket, long maxMs) throws InterruptedException {
    long deadline = System.nanoTime() + maxMs * 1_000_000L;
    if (ticket > wanted) {
      wanted = ticket;
      notifyAll(); // followed revisions waiting out their lag are taken now
    }
    while (applied < ticket && !closed) {
      long left = (deadline - System.nanoTime()) / 1_000_000L;
      if (left <= 0) {
        return;
      }
      wait(left);
    }
  }

  /** Releases the live thread and every waiting recall. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }
}
