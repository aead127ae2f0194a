package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large document's file is rewritten less often than every checkpoint lag (its revisions wait
 * in the log), and a flush still writes it at once.
 */
class CheckpointSpacingTest {
  private static final Duration LAG = Duration.ofMillis(100);

  @TempDir Path dir;

  @Test
  void spacingIsOneLagPerQuarterMebibyteBetweenOneAndThirtyLags() {
    long lag = LAG.toNanos();
    assertThat(Checkpointer.spacing(lag, 0)).isEqualTo(lag);
    assertThat(Checkpointer.spacing(lag, 100_000)).isEqualTo(lag);
    assertThat(Checkpointer.spacing(lag, 1024 * 1024)).isEqualTo(4 * lag);
    assertThat(Checkpointer.spacing(lag, 1024L * 1024 * 1024)).isEqualTo(30 * lag);
  }

  @Test
  void aLargeFileWaitsItsSpacingWhileASmallOneDoesNot() throws Exception {
    try (TestVault t = TestVault.openWithLag(dir, LAG)) {
      Vault v = t.vault;
      // About 4.5 MB: 17 lags (1.7 s) between two checkpoints of its file.
      CommitReceipt big =
          t.create("p/big.gram", "Big", new JsonObject().put("text", "word ".repeat(900_000)));
      CommitReceipt small = t.create("p/small.gram", "Small", "a few words");
      Path bigFile = dir.resolve("p/big.gram");
      Path smallFile = dir.resolve("p/small.gram");

      CommitReceipt big1 =
          t.patch("p/big.gram", 0, big.hash(), "b1", TestVault.ops(TestVault.add("task", "t1", "One")));
      waitFor(() -> holds(bigFile, 1)); // the first checkpoint of a file is not held back

      t.patch("p/big.gram", 1, big1.hash(), "b2", TestVault.ops(TestVault.add("task", "t2", "Two")));
      t.patch("p/small.gram", 0, small.hash(), "s1", TestVault.ops(TestVault.add("task", "t1", "One")));
      long rounds = v.checkpointRounds();
      waitFor(() -> v.checkpointRounds() >= rounds + 3);
      assertThat(holds(smallFile, 1)).as("a small file is written in the next round").isTrue();
      assertThat(holds(bigFile, 2)).as("a large file waits its spacing").isFalse();
      assertThat(t.read("p/big.gram").rev()).as("every read sees the revision meanwhile").isEqualTo(2);

      waitFor(() -> holds(bigFile, 2)); // once its spacing has passed

      String hash = t.read("p/big.gram").shortHash();
      t.patch("p/big.gram", 2, hash, "b3", TestVault.ops(TestVault.add("task", "t3", "Three")));
      v.checkpointNow();
      assertThat(holds(bigFile, 3)).as("a flush writes every owed file").isTrue();
    }
  }

  /** Whether the file's history ends at {@code rev}. */
  private static boolean holds(Path file, int rev) {
    try {
      return Files.readString(file).contains("\n@history " + rev + " ");
    } catch (IOException e) {
      return false; // between a checkpoint's rename and the next read
    }
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 30 s").isLessThan(end);
      Thread.sleep(10);
    }
  }
}
