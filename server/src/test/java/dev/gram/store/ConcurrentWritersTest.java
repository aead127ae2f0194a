package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 32 writers race on one document from the same base, round after round: in each round exactly
 * one commits and the others are told the base moved; each then rereads and tries again, until
 * every writer's change has landed.
 */
class ConcurrentWritersTest {
  @TempDir Path dir;

  @Test
  void exactlyOneCommitsPerRoundAndNothingIsLost() throws Exception {
    int writers = 32;
    try (TestVault t = TestVault.open(dir)) {
      t.create("race/doc.gram", "Race", "");
      Set<Integer> pending = new HashSet<>();
      for (int i = 0; i < writers; i++) {
        pending.add(i);
      }
      int rounds = 0;
      while (!pending.isEmpty()) {
        DocSnapshot base = t.read("race/doc.gram");
        List<Integer> round = new ArrayList<>(pending);
        List<Future<CommitReceipt>> attempts = new ArrayList<>();
        for (int w : round) {
          attempts.add(
              t.patchAsync("race/doc.gram", base.rev(), base.shortHash(), "w" + w + "-r" + rounds,
                  ops(add("task", "w" + w, "Writer " + w)), "writer-" + w));
        }
        int committed = 0;
        for (int k = 0; k < round.size(); k++) {
          try {
            attempts.get(k).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            committed++;
            pending.remove(round.get(k));
          } catch (ExecutionException e) {
            GramException te = (GramException) e.getCause();
            assertThat(te.code()).isEqualTo(ErrorCode.STALE_REVISION);
            assertThat(((StaleRevisionException) te).current().rev()).isEqualTo(base.rev() + 1);
          }
        }
        assertThat(committed).as("commits in round %d", rounds).isEqualTo(1);
        rounds++;
      }
      assertThat(rounds).isEqualTo(writers);
      DocSnapshot end = t.read("race/doc.gram");
      assertThat(end.rev()).isEqualTo(writers);
      assertThat(end.revisions()).hasSize(writers + 1);
      for (int w = 0; w < writers; w++) {
        assertThat(end.state().record("w" + w)).as("writer %d's record", w).isNotNull();
      }
    }
    // Read from disk by a fresh vault: the chain verifies and all 33 revisions are there.
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("race/doc.gram");
      assertThat(s.failure()).isNull();
      assertThat(s.revisions()).hasSize(writers + 1);
      assertThat(s.state().records()).hasSize(writers);
    }
  }
}
