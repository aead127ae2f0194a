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
 * <p>Nobody else waits for the index, so a document's state is taken when it is <em>due</em>, and
 * at once whenever a recall waits for it. This node's commit of a document is due at once, unless
 * the document is <em>hot</em>: it had another commit less than {@link #OWN_QUIET_MS} before.
 * A hot document's commits are due once it has had none for {@link #OWN_QUIET_MS}, and at the
 * latest {@link #OWN_LAG_MS} after the oldest of them: a document written a thousand times a
 * second is indexed about five times a second instead of a thousand, and the writer keeps the CPU
 * the indexing took (on two cores, one writer's 3,000 writes after start: p50 1.1-1.5 ms when
 * every commit was indexed at once, 0.8-0.9 ms with them coalesced), while a document written now
 * and then is indexed as soon as before. Revisions another node committed ({@link #putFollowed})
 * are due {@link #FOLLOWED_LAG_MS} after the oldest of them: a cluster's every node indexes every
 * revision, and under a stream of writes to the same documents this lets each node index a
 * document once for many of its owner's commits. So the ticket the live thread has reached is the
 * one just before the oldest state still waiting. A recall still finds every revision whose
 * receipt was returned before it arrived: it waits for its ticket as before, and its waiting makes
 * the live thread take everything at once.
 */
final class CommitQueue {
  /** Commits taken together, and the ticket the live thread has reached once they are applied. */
  record Batch(Map<String, DocSnapshot> commits, long upTo) {}

  /** How long a revision followed from another node may wait for the live thread when nobody asks. */
  static final long FOLLOWED_LAG_MS = 500;

  /**
   * A document of this node's committed again within this time is hot, and its state is due once
   * it has gone this long without a commit.
   */
  static final long OWN_QUIET_MS = 20;

  /** The longest a hot document's commit may wait for it to go quiet when nobody asks. */
  static final long OWN_LAG_MS = 200;

  /**
   * A document's newest state waiting, its ticket, whether only other nodes committed it, and the
   * commits it stands for: how many, when the oldest and the newest of them were queued (nanoTime).
   */
  private record Waiting(
      DocSnapshot snapshot, long ticket, boolean followed, boolean hot, long commits, long sinceNanos, long lastNanos) {
    /** When the live thread takes this state though no recall waits for it (nanoTime). */
    long dueNanos(long followedLagNanos, long ownQuietNanos, long ownLagNanos) {
      if (followed) {
        return sinceNanos + followedLagNanos;
      }
      return hot ? Math.min(lastNanos + ownQuietNanos, sinceNanos + ownLagNanos) : sinceNanos;
    }
  }

  private final long followedLagNanos;
  private final long ownQuietNanos;
  private final long ownLagNanos;
  /** In ticket order: a document queued again moves to the end. */
  private final Map<String, Waiting> waiting = new LinkedHashMap<>();
  /**
   * This node's documents taken lately, with their last commit's time (nanoTime), oldest first:
   * a commit within {@link #OWN_QUIET_MS} of the last one makes its document hot.
   */
  private final Map<String, Long> recentlyTaken = new LinkedHashMap<>();
  private long queued;
  /** The ticket the last batch taken reaches: every commit up to it was taken. */
  private long taken;
  /** The highest ticket a recall waits for: above {@link #taken}, the live thread takes everything. */
  private long wanted;
  /** When the live thread, waiting for a state to be due, wakes up (nanoTime); 0 when it does not wait so. */
  private long wakeNanos;
  private long applied;
  private boolean closed;
  /** Commits the waiting states stand for. */
  private long waitingCommits;
  /** Commits the batch the live thread holds stands for, and when the oldest was queued. */
  private long takenCommits;
  private long takenSince;

  CommitQueue() {
    this(FOLLOWED_LAG_MS, OWN_QUIET_MS, OWN_LAG_MS);
  }

  /**
   * @param followedLagMs how long a followed revision may wait when nobody asks for it
   * @param ownQuietMs a document of this node's committed again within this time is hot, and due
   *     once it has gone this long without a commit
   * @param ownLagMs the longest a hot document's commit may wait when nobody asks for it
   */
  CommitQueue(long followedLagMs, long ownQuietMs, long ownLagMs) {
    this.followedLagNanos = followedLagMs * 1_000_000L;
    this.ownQuietNanos = ownQuietMs * 1_000_000L;
    this.ownLagNanos = ownLagMs * 1_000_000L;
  }

  /**
   * Queues a document's new state ({@code null}: the document is gone), replacing one of the same
   * document still waiting. Called on the document's actor thread: never blocks for long.
   */
  synchronized void put(String path, DocSnapshot snapshot) {
    enqueue(path, snapshot, false);
  }

  /**
   * Queues a document's new state that another node committed: the live thread takes it within
   * {@link #FOLLOWED_LAG_MS}, or at once when a recall waits.
   */
  synchronized void putFollowed(String path, DocSnapshot snapshot) {
    enqueue(path, snapshot, true);
  }

  private void enqueue(String path, DocSnapshot snapshot, boolean followed) {
    // Moved to the end: the document is indexed after those committed before its latest state.
    Waiting before = waiting.remove(path);
    if (before != null && !before.followed()) {
      followed = false; // a commit of this node's keeps its document on this node's rule
    }
    queued++;
    waitingCommits++;
    long now = System.nanoTime();
    // Hot: committed again before the live thread took this node's last commit of it, or soon after.
    Long lastTaken = recentlyTaken.get(path);
    boolean hot = !followed
        && ((before != null && !before.followed()) || (lastTaken != null && now - lastTaken < ownQuietNanos));
    Waiting w = before == null
        ? new Waiting(snapshot, queued, followed, hot, 1, now, now)
        : new Waiting(snapshot, queued, followed, hot, before.commits() + 1, before.sinceNanos(), now);
    waiting.put(path, w);
    // Wake the live thread only when this state is due before it would wake anyway: a document
    // written again and again is due no sooner than before, so a stream of commits wakes nobody.
    if (wakeNanos == 0 || w.dueNanos(followedLagNanos, ownQuietNanos, ownLagNanos) - wakeNanos < 0) {
      notifyAll();
    }
  }

  /** The ticket of a recall arriving now: every commit whose receipt was returned is before it. */
  synchronized long ticket() {
    return queued;
  }

  /**
   * Takes the waiting states that are due, blocking while none is, until {@link #close}; and every
   * waiting state once a recall waits for one.
   */
  synchronized Batch take() throws InterruptedException {
    boolean everything = false;
    while (!closed) {
      if (waiting.isEmpty()) {
        wakeNanos = 0;
        wait(200);
        continue;
      }
      if (wanted > taken) {
        everything = true;
        break;
      }
      long now = System.nanoTime();
      long due = firstDue();
      if (due - now <= 0) {
        break;
      }
      wakeNanos = due;
      long ms = (due - now + 999_999) / 1_000_000L;
      wait(ms);
    }
    wakeNanos = 0;
    Map<String, DocSnapshot> commits = new LinkedHashMap<>();
    long now = System.nanoTime();
    takenSince = now;
    for (var it = waiting.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Waiting> e = it.next();
      Waiting w = e.getValue();
      if (everything || closed || w.dueNanos(followedLagNanos, ownQuietNanos, ownLagNanos) - now <= 0) {
        commits.put(e.getKey(), w.snapshot());
        it.remove();
        takenCommits += w.commits();
        waitingCommits -= w.commits();
        takenSince = Math.min(takenSince, w.sinceNanos());
        if (!w.followed()) {
          recentlyTaken.remove(e.getKey());
          recentlyTaken.put(e.getKey(), w.lastNanos());
        }
      }
    }
    // Only the last OWN_QUIET_MS matter; the map is in the order of the commits' times.
    for (var it = recentlyTaken.values().iterator(); it.hasNext() && now - it.next() >= ownQuietNanos; ) {
      it.remove();
    }
    taken = waiting.isEmpty() ? queued : waiting.values().iterator().next().ticket() - 1;
    return new Batch(commits, taken);
  }

  /**
   * When the first waiting state is due (nanoTime). Not simply the first state's: a state queued
   * again moves to the end but keeps the time of the oldest commit it stands for.
   */
  private long firstDue() {
    long first = Long.MAX_VALUE;
    boolean any = false;
    for (Waiting w : waiting.values()) {
      long due = w.dueNanos(followedLagNanos, ownQuietNanos, ownLagNanos);
      if (!any || due - first < 0) {
        first = due;
        any = true;
      }
    }
    return first;
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
