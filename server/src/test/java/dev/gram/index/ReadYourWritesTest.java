package dev.gram.index;

import static dev.gram.index.Fixtures.add;
import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.store.CommitReceipt;
import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write's receipt means every client's next recall finds it: no sleeping, no polling. */
class ReadYourWritesTest {
  @TempDir Path dir;

  static List<String> ids(JsonObject a) {
    List<String> out = new ArrayList<>();
    for (Object o : a.getJsonArray("hits")) {
      out.add(((JsonArray) o).getString(0));
    }
    return out;
  }

  static List<String> titles(JsonObject a) {
    List<String> out = new ArrayList<>();
    for (Object o : a.getJsonArray("hits")) {
      out.add(((JsonArray) o).getString(2));
    }
    return out;
  }

  static JsonObject recall(GramTestServer s, String query) {
    return s.call("gram_recall", new JsonObject().put("query", query).put("mode", "keyword")).ok();
  }

  @Test
  void anotherClientFindsEachPatchRightAfterItsReceipt() throws Exception {
    ExecutorService otherClient = Executors.newSingleThreadExecutor();
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--no-semantic")) {
      CommitReceipt r = Fixtures.create(s, "rw/log.gram", "Write log", "# Log\n\nNothing yet.");
      for (int i = 0; i < 40; i++) {
        String word = "quokka" + i + "x";
        r = Fixtures.patch(s, "rw/log.gram", r.rev(), r.hash(), "req-" + i,
            new JsonArray().add(add(record("task", "t" + i, "Feed the " + word))));
        GramTestServer server = s;
        Future<JsonObject> seen = otherClient.submit(() -> recall(server, word));
        assertThat(ids(seen.get(10, TimeUnit.SECONDS))).as("write " + i).contains("rw/log.gram#t" + i);
      }
      // A change is seen as well: the old title is gone at once, the new one is there.
      r = Fixtures.patch(s, "rw/log.gram", r.rev(), r.hash(), "req-rename",
          new JsonArray().add(Fixtures.set("t0", "t", "Walk the wombat")));
      GramTestServer server = s;
      assertThat(ids(otherClient.submit(() -> recall(server, "quokka0x")).get())).doesNotContain("rw/log.gram#t0");
      assertThat(ids(otherClient.submit(() -> recall(server, "wombat")).get())).contains("rw/log.gram#t0");
      // A title changed while the same question is asked again shows the new title.
      assertThat(titles(recall(s, "quokka1x"))).containsExactly("Feed the quokka1x");
      r = Fixtures.patch(s, "rw/log.gram", r.rev(), r.hash(), "req-retitle",
          new JsonArray().add(Fixtures.set("t1", "t", "Feed the quokka1x twice")));
      assertThat(titles(recall(s, "quokka1x"))).containsExactly("Feed the quokka1x twice");
      // And the document identity in the answer is the receipt's.
      JsonObject a = recall(s, "wombat");
      assertThat(a.getJsonArray("docs").getJsonObject(0).getInteger("rev")).isEqualTo(r.rev());
      assertThat(a.getJsonArray("docs").getJsonObject(0).getString("hash")).isEqualTo(r.hash());
      // A deleted record is gone at once, and a commit rewrites only what changed: every other
      // record is still there, once.
      r = Fixtures.patch(s, "rw/log.gram", r.rev(), r.hash(), "req-del",
          new JsonArray().add(new JsonObject().put("op", "del").put("entity", "t1")));
      assertThat(ids(otherClient.submit(() -> recall(server, "quokka1x")).get())).doesNotContain("rw/log.gram#t1");
      List<String> fed = ids(s.call("gram_recall", new JsonObject().put("query", "feed").put("mode", "keyword").put("top_k", 100)).ok());
      assertThat(fed).doesNotHaveDuplicates().doesNotContain("rw/log.gram#t1", "rw/log.gram#t0").hasSize(38);
    } finally {
      otherClient.shutdownNow();
    }
  }

  /**
   * A recall asked again while nothing changed is answered from the ranking kept for it; a write
   * in between must still be found by the same question asked again, and a deleted record lost.
   */
  @Test
  void theSameRecallAskedAgainSeesTheWriteBetween() throws Exception {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--no-semantic")) {
      CommitReceipt r = Fixtures.create(s, "rw/zoo.gram", "Zoo", "# Zoo\n\nAnimals.");
      r = Fixtures.patch(s, "rw/zoo.gram", r.rev(), r.hash(), "req-1",
          new JsonArray().add(add(record("task", "w1", "Weigh the wombat"))));
      assertThat(ids(recall(s, "wombat"))).containsExactly("rw/zoo.gram#w1");
      assertThat(ids(recall(s, "wombat"))).containsExactly("rw/zoo.gram#w1");
      r = Fixtures.patch(s, "rw/zoo.gram", r.rev(), r.hash(), "req-2",
          new JsonArray().add(add(record("task", "w2", "Wash the wombat"))));
      assertThat(ids(recall(s, "wombat"))).containsExactlyInAnyOrder("rw/zoo.gram#w1", "rw/zoo.gram#w2");
      r = Fixtures.patch(s, "rw/zoo.gram", r.rev(), r.hash(), "req-3",
          new JsonArray().add(new JsonObject().put("op", "del").put("entity", "w1")));
      assertThat(ids(recall(s, "wombat"))).containsExactly("rw/zoo.gram#w2");
    }
  }

  @Test
  void concurrentWritersAndReadersAlwaysSeeEveryReceipt() throws Exception {
    int writers = 4;
    int writes = 15;
    ExecutorService pool = Executors.newFixedThreadPool(writers * 2);
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--no-semantic")) {
      List<Future<Void>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String path = "rw/doc" + w + ".gram";
        int writer = w;
        done.add(pool.submit(() -> {
          CommitReceipt r = Fixtures.create(s, path, "Doc " + writer, "");
          for (int i = 0; i < writes; i++) {
            String word = "wallaby" + writer + "n" + i + "q";
            r = Fixtures.patch(s, path, r.rev(), r.hash(), "w" + writer + "-" + i,
                new JsonArray().add(add(record("knowledge", "k" + i, "About the " + word))));
            // Read from a different thread than the writer's: another client.
            Future<JsonObject> seen = pool.submit(() -> recall(s, word));
            assertThat(ids(seen.get(10, TimeUnit.SECONDS))).contains(path + "#k" + i);
          }
          return null;
        }));
      }
      for (Future<Void> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
