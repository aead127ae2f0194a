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
 * #FOLLOWED_LAG_MS} before the live thread takes them, unless a recall waits for them: a cluster's
 * every node indexes every revision, and under a stream of writes to the same documents this lets
 * each node index a document once for many of its owner's commits. This node's own commits are
 * taken at once and leave the followed ones waiting (on a busy node, taking them along meant
 * taking them at once: every node of a cluster commits too). So the ticket the live thread has
 * reached is the one just before the oldest revision still waiting. A recall still finds every
 * revision whose receipt was returned before it arrived: it waits for its ticket as before, and
 * its waiting makes the live thread take everything at once.
 */
final class CommitQueue {
  /** Commits taken together, and the ticket the live thread has reached once they are applied. */
  record Batch(Map<String, DocSnapshot> commits, long upTo) {}

  /** How long a revision followed from another node may wait for the live thread when nobody asks. */
  static final long FOLLOWED_LAG_MS = 500;

  /**
   * A document's newest state waiting, its ticket, whether only other nodes committed it, and the
   * commits it stands for: how many, and when the oldest of them was queued (nanoTime).
   */
  private record Waiting(
      DocSnapshot snapshot, long ticket, boolean followed, long commits, long sinceNanos) {}

  private final long followedLagMs;
  /** In ticket order: a document queued again moves to the end. */
  private final Map<String, Waiting> waiting = new LinkedHashMap<>();
  private long queued;
  /** The ticket the last batch taken reaches: every commit up to it was taken. */
  private long taken;
  /** The highest ticket a recall waits for: above {@link #taken}, the live thread takes everything. */
  private long wanted;
  /** Commits of this node waiting: they are taken at once. */
  private int ownWaiting;
  private long applied;
  private boolean closed;
  /** Commits the waiting states stand for. */
  private long waitingCommits;
  /** Commits the batch the live thread holds stands for, and when the oldest was queued. */
  private long takenCommits;
  private long takenSince;

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
    enqueue(path, snapshot, false);
    notifyAll();
  }

  /**
   * Queues a document's new state that another node committed: the live thread takes it within
   * {@link #FOLLOWED_LAG_MS}, or at once when a recall waits.
   */
  synchronized void putFollowed(String path, DocSnapshot snapshot) {
    // No wake-up: the live thread looks again within its lag (or its idle wait, shorter).
    enqueue(path, snapshot, true);
  }

  private void enqueue(String path, DocSnapshot snapshot, boolean followed) {
    // Moved to the end: the document is indexed after those committed before its latest state.
    Waiting before = waiting.remove(path);
    if (before != null && !before.followed()) {
      ownWaiting--;
      followed = false; // a commit of this node's stays taken at once
    }
    queued++;
    waitingCommits++;
    waiting.put(path, before == null
        ? new Waiting(snapshot, queued, followed, 1, System.nanoTime())
        : new Waiting(snapshot, queued, followed, before.commits() + 1, before.sinceNanos()));
    if (!followed) {
      ownWaiting++;
    }
  }

  /** The ticket of a recall arriving now: every commit whose receipt was returned is before it. */
  synchronized long ticket() {
    return queued;
  }

  /**
   * Takes this node's waiting commits, blocking while there is none, until {@link #close}; and
   * every waiting commit once a recall waits for one or the oldest followed revision's lag passed.
   */
  synchronized Batch take() throws InterruptedException {
    boolean everything = false;
    while (!closed) {
      if (waiting.isEmpty()) {
        wait(200);
        continue;
      }
      long left = wanted > taken
          ? 0
          : followedLagMs - (System.nanoTime() - oldestFollowedSince()) / 1_000_000L;
      if (left <= 0) {
        everything = true;
        break;
      }
      if (ownWaiting > 0) {
        break;
      }
      wait(left);
    }
    Map<String, DocSnapshot> commits = new LinkedHashMap<>();
    takenSince = System.nanoTime();
    for (var it = waiting.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Waiting> e = it.next();
      Waiting w = e.getValue();
      if (everything || closed || !w.followed()) {
        commits.put(e.getKey(), w.snapshot());
        it.remove();
        takenCommits += w.commits();
        waitingCommits -= w.commits();
        takenSince = Math.min(takenSince, w.sinceNanos());
      }
    }
    ownWaiting = 0;
    taken = waiting.isEmpty() ? queued : waiting.values().iterator().next().ticket() - 1;
    return new Batch(commits, taken);
  }

  /**
   * When the oldest followed revision still waiting was queued (nanoTime); now when there is none.
   * Not simply the first followed state: a state queued again moves to the end but keeps the time
   * of the oldest commit it stands for.
   */
  private long oldestFollowedSince() {
    long oldest = System.nanoTime();
    for (Waiting w : waiting.values()) {
      if (w.followed() && w.sinceNanos() - oldest < 0) {
        oldest = w.sinceNanos();
      }
    }
    return oldest;
  }

  /** The live thread has handed everything up to {@code upTo} to Lucene. */
  synchronized void applied(long upTo) {
    applied = Math.max(applied, upTo);
    takenCommits = 0;
    notifyAll();
  }

  /** Commits queued but not yet handed to Lucene, and how long the oldest of them has waited. */
  synchronized IndexStatus.Lag lag() {
    long behind = waitingCommits + takenCommits;
    if (behind <= 0) {
      return IndexStatus.Lag.NONE;
    }
    long oldest = takenCommits > 0 ? takenSince : Long.MAX_VALUE;
    for (Waiting w : waiting.values()) {
      oldest = Math.min(oldest, w.sinceNanos());
    }
    return new IndexStatus.Lag(behind, (System.nanoTime() - oldest) / 1_000_000L);
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
