package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The index's lag behind the vault, as /metrics shows it: commits not yet searchable and their age. */
class CommitQueueTest {
  @Test
  void lagCountsCommitsNotYetAppliedAndTheAgeOfTheOldest() throws Exception {
    CommitQueue q = new CommitQueue();
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
}
