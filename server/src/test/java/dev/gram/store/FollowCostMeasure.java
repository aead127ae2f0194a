package dev.gram.store;

import static dev.gram.store.TestVault.await;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a cluster's follower pays per revision of a large document: an owner's vault commits
 * {@code patches} patches to a document of {@code records} records (each sets a field of one, or
 * adds a record, in turn), and a follower's vault takes each revision ({@link Vault#follow}); the
 * follow's wall time is printed (median and mean, in three rounds). Not a test: run its {@code main}
 * on the test class path, {@code java -cp … dev.gram.store.FollowCostMeasure DIR [records] [patches]}.
 */
public final class FollowCostMeasure {
  private static final String PATH = "p/log.gram";

  private FollowCostMeasure() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory(Files.createDirectories(Path.of(args[0])), "follow-");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int patches = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    Path ownerDir = dir.resolve("owner");
    Path followerDir = dir.resolve("follower");
    try (TestVault owner = TestVault.openWithoutTimedCheckpoints(ownerDir)) {
      owner.create(PATH, "Log", "");
      int next = 0;
      while (next < records) {
        JsonArray ops = new JsonArray();
        for (int k = 0; k < 500 && next < records; k++, next++) {
          ops.add(TestVault.add("event", "e" + next, "Event " + next + " of the log: the team looked at item "
              + next + " and wrote down what it saw"));
        }
        patch(owner, ops);
      }
      owner.vault.checkpointNow();
      Files.createDirectories(followerDir.resolve("p"));
      Files.copy(ownerDir.resolve(PATH), followerDir.resolve(PATH));
      try (TestVault follower = TestVault.openWithoutTimedCheckpoints(followerDir)) {
        follower.read(PATH);
        for (int round = 0; round < 3; round++) {
          long[] nanos = new long[patches];
          for (int i = 0; i < patches; i++) {
            JsonObject op = i % 2 == 0
                ? TestVault.set("e" + ((i * 7919) % records), "status", "seen " + round + "-" + i)
                : TestVault.add("event", "r" + round + "-" + i, "Added in round " + round);
            DocSnapshot s = patch(owner, new JsonArray().add(op));
            long t0 = System.nanoTime();
            await(follower.vault.follow(PATH, s.revisions().get(s.rev())));
            nanos[i] = System.nanoTime() - t0;
          }
          Arrays.sort(nanos);
          System.out.printf(Locale.ROOT, "records %d, round %d: follow p50 %.3f ms, mean %.3f ms over %d revisions%n",
              records, round, nanos[patches / 2] / 1e6, Arrays.stream(nanos).average().orElse(0) / 1e6, patches);
        }
      }
    }
  }

  private static DocSnapshot patch(TestVault owner, JsonArray ops) {
    DocSnapshot s = owner.read(PATH);
    owner.patch(PATH, s.rev(), s.shortHash(), "req-" + s.rev(), ops);
    return owner.read(PATH);
  }
}
