package dev.gram.index;

import static dev.gram.index.Fixtures.add;
import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.StoreWrites;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server opens its index after a client's handshake (RecallIndex.openLater): what the vault
 * loads and commits before that is held and handed on, so the first recall still finds every
 * acknowledged write, and nothing is indexed twice or lost while the hand-over happens.
 */
class IndexOpensLaterTest {
  @TempDir Path dir;

  private static RecallRequest keyword(String q, int topK) {
    return new RecallRequest(q, RecallRequest.Mode.KEYWORD, RecallRequest.Filters.NONE, topK, 0);
  }

  private static List<String> ids(RecallResult r) {
    List<String> out = new ArrayList<>();
    for (RecallResult.Hit h : r.hits()) {
      out.add(h.path() + "#" + h.entityId());
    }
    return out;
  }

  @Test
  void writesAcknowledgedBeforeTheIndexOpensAreFoundByTheFirstRecall() throws Exception {
    Path root = dir.resolve("vault");
    Vault before = new Vault(new PathResolver(root, List.of()), new PatchOps(), Clock.systemUTC(), 2);
    Fixtures.await(before.start());
    new StoreWrites(before).create("p/old.gram", "Old notes about the numbat", "");
    Fixtures.await(before.close());

    Vault vault = new Vault(new PathResolver(root, List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex ri = RecallIndex.openLater(vault, dir.resolve("index"), false);
    try {
      Fixtures.await(vault.start());
      StoreWrites w = new StoreWrites(vault);
      w.create("p/new.gram", "New notes", "");
      w.patch("p/new.gram", new JsonArray().add(add(record("task", "t1", "Feed the quoll"))));
      w.patch("p/old.gram", new JsonArray().add(add(record("task", "t2", "Count the quoll"))));
      // Nothing is open yet: the status says what is waiting, and no folder was created.
      assertThat(Files.exists(dir.resolve("index"))).isFalse();
      assertThat(ri.stats().pendingFiles()).isEqualTo(2);
      assertThat(ri.stats().indexedFiles()).isZero();
      assertThat(ri.lag().commits()).isEqualTo(3);

      // The first recall opens the index and sees every receipt returned before it.
      RecallResult r = Fixtures.await(ri.recall(keyword("quoll", 10)));
      assertThat(ids(r)).containsExactlyInAnyOrder("p/new.gram#t1", "p/old.gram#t2");
      // The document loaded by the scan, before the index opened, is indexed as well.
      assertThat(Fixtures.await(ri.recall(keyword("numbat", 10))).hits())
          .extracting(RecallResult.Hit::path).containsExactly("p/old.gram");
      assertThat(ri.awaitIdle(10_000, false)).isTrue();
      assertThat(ri.stats().indexedFiles()).isEqualTo(2);
      assertThat(ri.stats().pendingFiles()).isZero();
    } finally {
      ri.close();
      Fixtures.await(vault.close());
    }
  }

  @Test
  void writesDuringTheHandOverAreNeitherLostNorIndexedTwice() throws Exception {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 4);
    RecallIndex ri = RecallIndex.openLater(vault, null, false);
    try {
      Fixtures.await(vault.start());
      StoreWrites w = new StoreWrites(vault);
      int writers = 3;
      for (int d = 0; d < writers; d++) {
        w.create("p/d" + d + ".gram", "Doc " + d, "");
      }
      AtomicBoolean failed = new AtomicBoolean();
      AtomicBoolean stop = new AtomicBoolean();
      java.util.concurrent.atomic.AtomicInteger acked = new java.util.concurrent.atomic.AtomicInteger();
      int[] perWriter = new int[writers];
      List<Thread> threads = new ArrayList<>();
      for (int d = 0; d < writers; d++) {
        String path = "p/d" + d + ".gram";
        int doc = d;
        Thread t = new Thread(() -> {
          try {
            for (int i = 0; !stop.get(); i++) {
              w.patch(path, new JsonArray().add(add(record("task", "t" + i, "Walk wombat" + doc + "x" + i))));
              perWriter[doc] = i + 1;
              acked.incrementAndGet();
            }
          } catch (Throwable e) {
            failed.set(true);
          }
        });
        threads.add(t);
        t.start();
      }
      // Writes before the opening (held), while it runs (held, then replayed or forwarded), and
      // after it (forwarded): each phase must have happened, or the test proves nothing.
      awaitAcked(acked, 15);
      int atBegin = acked.get();
      ri.beginOpening();
      ri.awaitOpen();
      int atOpen = acked.get();
      awaitAcked(acked, atOpen + 15);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(failed).isFalse();
      assertThat(atOpen - atBegin).as("writes acknowledged while the index opened").isPositive();
      int total = 0;
      for (int d = 0; d < writers; d++) {
        for (int i = 0; i < perWriter[d]; i++) {
          String word = "wombat" + d + "x" + i;
          assertThat(ids(Fixtures.await(ri.recall(keyword(word, 5))))).as(word).containsExactly("p/d" + d + ".gram#t" + i);
        }
        total += perWriter[d];
      }
      List<String> all = ids(Fixtures.await(ri.recall(keyword("walk", total + 50))));
      assertThat(all).hasSize(total).doesNotHaveDuplicates();
    } finally {
      ri.close();
      Fixtures.await(vault.close());
    }
  }

  /** Waits (a bounded time) until at least {@code n} writes were acknowledged. */
  private static void awaitAcked(java.util.concurrent.atomic.AtomicInteger acked, int n) throws InterruptedException {
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (acked.get() < n && System.nanoTime() < until) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
    assertThat(acked.get()).as("writes acknowledged").isGreaterThanOrEqualTo(n);
  }

  @Test
  void anIndexNeverOpenedClosesAtOnceAndRefusesLaterRecalls() throws Exception {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex ri = RecallIndex.openLater(vault, dir.resolve("index"), false);
    Fixtures.await(vault.start());
    ri.close();
    assertThat(Files.exists(dir.resolve("index"))).isFalse();
    assertThat(ri.recall(keyword("anything", 5)).failed()).isTrue();
    Fixtures.await(vault.close());
  }
}
