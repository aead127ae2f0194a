package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The index's lag behind the vault, as /metrics shows it, and when the live thread takes what is
 * queued: this node's commits at once, a hot document's once it pauses (or its oldest commit's lag
 * passed), without the revisions followed from another node, which wait their longer lag;
 * everything at once when a recall waits for it.
 */
class CommitQueueTest {
  /** The live thread's loop, once: takes a batch and hands it to "Lucene". */
  private static CompletableFuture<CommitQueue.Batch> liveThreadTakes(CommitQueue q) {
    CompletableFuture<CommitQueue.Batch> taken = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        CommitQueue.Batch b = q.take();
        q.applied(b.upTo());
        taken.complete(b);
      } catch (Throwable e) {
        taken.completeExceptionally(e);
      }
    }, "live");
    t.setDaemon(true);
    t.start();
    return taken;
  }

  @Test
  void aFollowedRevisionWaitsOutItsLagWhileNobodyAsks() throws Exception {
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), CommitQueue.OWN_QUIET_MS, CommitQueue.OWN_LAG_MS);
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.putFollowed("a.gram", null);
    q.putFollowed("b.gram", null);
    // Longer than the live thread's idle wait (200 ms), after which it looks at the queue again:
    // a queue that takes followed revisions at once has taken them by then.
    Thread.sleep(300);
    assertThat(taken).as("taken before its lag with no recall waiting").isNotCompleted();
    assertThat(q.lag().commits()).isEqualTo(2);
    // A commit of this node is taken at once, alone: the followed ones still wait their lag.
    q.put("c.gram", null);
    CommitQueue.Batch own = taken.get(10, TimeUnit.SECONDS);
    assertThat(own.commits().keySet()).containsExactly("c.gram");
    assertThat(own.upTo()).as("the live thread has not reached the followed revisions' tickets").isZero();
    CompletableFuture<CommitQueue.Batch> next = liveThreadTakes(q);
    Thread.sleep(300);
    assertThat(next).as("the followed revisions taken with no recall waiting").isNotCompleted();
    // A recall waiting for all three makes the live thread take the followed ones.
    q.awaitApplied(3, TimeUnit.SECONDS.toMillis(30));
    assertThat(next.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram", "b.gram");
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
  }

  @Test
  void aDocumentThisNodeCommitsStaysTakenAtOnceWhenAnotherNodesRevisionReplacesIt() throws Exception {
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), CommitQueue.OWN_QUIET_MS, CommitQueue.OWN_LAG_MS);
    q.put("a.gram", null);
    q.putFollowed("a.gram", null); // ownership moved while this node's commit waited
    CommitQueue.Batch b = q.take();
    assertThat(b.commits().keySet()).containsExactly("a.gram");
    assertThat(b.upTo()).isEqualTo(2);
  }

  @Test
  void aRecallTakesTheFollowedRevisionsBeforeIt() throws Exception {
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), CommitQueue.OWN_QUIET_MS, CommitQueue.OWN_LAG_MS);
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.putFollowed("a.gram", null);
    long ticket = q.ticket();
    q.awaitApplied(ticket, TimeUnit.SECONDS.toMillis(30));
    // Applied, not timed out: the recall's wait made the live thread take what it waits for.
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
    assertThat(taken.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram");
  }

  @Test
  void aFollowedRevisionIsTakenOnceItsLagPassed() throws Exception {
    CommitQueue q = new CommitQueue(50, CommitQueue.OWN_QUIET_MS, CommitQueue.OWN_LAG_MS);
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.putFollowed("a.gram", null);
    assertThat(taken.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram");
  }

  @Test
  void lagCountsTheFollowedRevisionsStillWaitingNotTheCommitsAppliedAfterThem() throws Exception {
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), CommitQueue.OWN_QUIET_MS, CommitQueue.OWN_LAG_MS);
    q.putFollowed("a.gram", null);
    q.putFollowed("a.gram", null);
    Thread.sleep(20);
    q.put("b.gram", null);
    q.put("c.gram", null);
    CommitQueue.Batch own = q.take();
    assertThat(own.commits().keySet()).containsExactly("b.gram", "c.gram");
    assertThat(q.lag().commits()).as("two taken, not applied yet, and two waiting").isEqualTo(4);
    q.applied(own.upTo());
    IndexStatus.Lag lag = q.lag();
    assertThat(lag.commits()).isEqualTo(2);
    assertThat(lag.oldestMillis()).isGreaterThanOrEqualTo(20);
  }

  @Test
  void lagCountsCommitsNotYetAppliedAndTheAgeOfTheOldest() throws Exception {
    // Commits due at once: this test is about counting, not about when they are taken.
    CommitQueue q = new CommitQueue(CommitQueue.FOLLOWED_LAG_MS, 0, 0);
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
    q.put("a.gram", null);
    Thread.sleep(20);
    q.put("b.gram", null);
    IndexStatus.Lag lag = q.lag();
    assertThat(lag.commits()).isEqualTo(2);
    assertThat(lag.oldestMillis()).isGreaterThanOrEqualTo(20);
    CommitQueue.Batch batch = q.take();
    q.applied(batch.upTo());
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
  }

  @Test
  void aDocumentCommittedAfterAPauseIsTakenAtOnce() throws Exception {
    // Neither pause nor lag ever comes: a document that is not hot is taken at once all the same.
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), TimeUnit.HOURS.toMillis(1), TimeUnit.HOURS.toMillis(1));
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.put("a.gram", null);
    assertThat(taken.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram");
  }

  /** A queue whose live thread has just taken and applied one commit of {@code path}: the document is hot. */
  private static CommitQueue justTaken(String path, long quietMs, long lagMs) throws Exception {
    CommitQueue q = new CommitQueue(TimeUnit.HOURS.toMillis(1), quietMs, lagMs);
    CompletableFuture<CommitQueue.Batch> first = liveThreadTakes(q);
    q.put(path, null);
    assertThat(first.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly(path);
    return q;
  }

  @Test
  void aDocumentWrittenAgainAndAgainIsIndexedOnceForAllItsCommits() throws Exception {
    // Neither pause nor lag ever comes: only a recall makes the live thread take the hot document.
    CommitQueue q = justTaken("hot.gram", TimeUnit.HOURS.toMillis(1), TimeUnit.HOURS.toMillis(1));
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    for (int i = 0; i < 5; i++) {
      q.put("hot.gram", null);
    }
    // Longer than the live thread's idle wait (200 ms): a queue that takes this node's commits at
    // once has taken the first of these by then.
    Thread.sleep(300);
    assertThat(taken).as("taken while the document is still being written").isNotCompleted();
    assertThat(q.lag().commits()).isEqualTo(5);
    q.awaitApplied(q.ticket(), TimeUnit.SECONDS.toMillis(30));
    CommitQueue.Batch b = taken.get(10, TimeUnit.SECONDS);
    assertThat(b.commits().keySet()).as("one indexing stands for the five commits").containsExactly("hot.gram");
    assertThat(b.upTo()).isEqualTo(6);
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
  }

  @Test
  void aHotDocumentThatPausesIsTakenWithoutARecall() throws Exception {
    CommitQueue q = justTaken("a.gram", TimeUnit.SECONDS.toMillis(1), TimeUnit.HOURS.toMillis(1));
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.put("a.gram", null);
    q.put("a.gram", null);
    assertThat(taken.get(30, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram");
    assertThat(q.lag()).isEqualTo(IndexStatus.Lag.NONE);
  }

  @Test
  void aHotDocumentThatNeverPausesIsTakenOnceItsOldestCommitsLagPassed() throws Exception {
    CommitQueue q = justTaken("a.gram", TimeUnit.HOURS.toMillis(1), 50);
    CompletableFuture<CommitQueue.Batch> taken = liveThreadTakes(q);
    q.put("a.gram", null);
    assertThat(taken.get(10, TimeUnit.SECONDS).commits().keySet()).containsExactly("a.gram");
  }
}
