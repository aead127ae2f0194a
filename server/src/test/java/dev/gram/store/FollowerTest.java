package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.await;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Entity;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster's follower: every revision the owner commits, handed to the follower, leaves it with
 * the owner's state, revision and hash. The revisions are applied as deltas: records the edits
 * never came near stay the same objects. (Two vaults in one process cannot share a folder, as the
 * cluster's nodes do, so the follower's vault starts from a copy of the owner's file.)
 */
class FollowerTest {
  private static final String PATH = "p/a.gram";

  @TempDir Path dir;

  @Test
  void aFollowerHoldsTheOwnersStateAfterEveryRevision() throws Exception {
    Path ownerDir = dir.resolve("owner");
    Path followerDir = dir.resolve("follower");
    try (TestVault owner = TestVault.openWithoutTimedCheckpoints(ownerDir)) {
      owner.create(PATH, "A", "");
      Files.createDirectories(followerDir.resolve("p"));
      Files.copy(ownerDir.resolve(PATH), followerDir.resolve(PATH));
      try (TestVault follower = TestVault.openWithoutTimedCheckpoints(followerDir)) {
        follow(owner, follower);
      }
    }
  }

  private static void follow(TestVault owner, TestVault follower) {
    {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        ids.add("t" + i);
        commitAndFollow(owner, follower, ops(add("task", "t" + i, "Task " + i)));
      }
      Entity first = follower.read(PATH).state().records().get(0);
      Random random = new Random(29);
      for (int i = 10; i < 310; i++) {
        // Edits anywhere but the first five records: adds, field changes, links, blocks, deletes,
        // and now and then the owner's title.
        int pick = 5 + random.nextInt(ids.size() - 5);
        String target = ids.get(pick);
        JsonObject op = switch (random.nextInt(7)) {
          case 0, 1 -> {
            ids.add("t" + i);
            yield add("task", "t" + i, "Task " + i);
          }
          case 2 -> set(target, "status", random.nextBoolean() ? "open" : "done");
          case 3 -> new JsonObject().put("op", "link").put("entity", target).put("predicate", "depends")
              .put("target", ids.get(random.nextInt(ids.size())));
          case 4 -> new JsonObject().put("op", "block").put("entity", target).put("name", "notes")
              .put("text", "line one\n\nline " + i + "\n::end inside\n");
          case 5 -> {
            if (ids.size() > 8) {
              ids.remove(pick);
              yield new JsonObject().put("op", "del").put("entity", target);
            }
            yield set(target, "t", "Retitled " + i);
          }
          default -> i % 5 == 0 ? set(owner.read(PATH).state().owner().id(), "t", "Title " + i)
              : set(target, "t", "Retitled " + i);
        };
        commitAndFollow(owner, follower, ops(op));
      }
      assertThat(follower.read(PATH).state().records().get(0))
          .as("a record no revision touched is the one the follower had: applied as deltas, not parsed again")
          .isSameAs(first);
    }
  }

  private static void commitAndFollow(TestVault owner, TestVault follower, JsonArray ops) {
    DocSnapshot s = owner.read(PATH);
    owner.patch(PATH, s.rev(), s.shortHash(), "req-" + s.rev(), ops);
    DocSnapshot now = owner.read(PATH);
    await(follower.vault.follow(PATH, now.revisions().get(now.rev())));
    DocSnapshot f = follower.read(PATH);
    assertThat(f.rev()).isEqualTo(now.rev());
    assertThat(f.hash()).isEqualTo(now.hash());
    assertThat(f.state()).isEqualTo(now.state());
  }
}
