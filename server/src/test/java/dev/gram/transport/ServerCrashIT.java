package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server, killed with SIGKILL while it works, and started again on the same vault:
 * {@value #DEFAULT_CYCLES} cycles of 16 writers on 8 documents over HTTP ({@code
 * -Dgram.crash.cycles=N}; the soak profile runs 200), every third cycle creating documents
 * instead; kills during the start-up scan of a 2,000-document vault; kills during a rebuild of the
 * search index. After each kill every document loads and verifies, every acknowledged write is in
 * its document, and the restarted server's search finds what was written before the kill.
 */
class ServerCrashIT {
  static final int DEFAULT_CYCLES = 10;
  static final int DOCS = 8;

  @TempDir Path dir;

  /** An acknowledged write: the document, the record it added, and the one word only it holds. */
  record Ack(String path, String recordId, String word) {}

  @Test
  void acknowledgedWritesSurviveSigkillOfTheServerUnderLoad() throws Exception {
    int cycles = Integer.getInteger("gram.crash.cycles", DEFAULT_CYCLES);
    Random random = new Random(17);
    ConcurrentLinkedQueue<Ack> acked = new ConcurrentLinkedQueue<>();
    for (int cycle = 0; cycle < cycles; cycle++) {
      ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio");
      StatelessCalls calls = new StatelessCalls(server.mcpUrl(), "crash");
      if (!acked.isEmpty()) {
        // The index recovered too: the last acknowledged write is found by its one word.
        Ack last = new ArrayList<>(acked).get(acked.size() - 1);
        JsonObject found = recallUntilFound(calls, last.word());
        assertThat(found.encode()).as("recall of %s after the kill before cycle %d", last.word(), cycle)
            .contains(last.path() + "#" + last.recordId());
      }
      boolean creating = cycle % 3 == 2;
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 16; w++) {
        int writer = w;
        int round = cycle;
        Thread t = new Thread(() -> write(calls, writer, round, creating, stop, acked));
        t.start();
        writers.add(t);
      }
      Thread.sleep(400 + random.nextInt(1200));
      server.kill();
      stop.set(true);
      for (Thread t : writers) {
        t.join(60_000);
      }
      server.close();
      checkEveryAcknowledgedWrite(acked, cycle);
    }
    assertThat(acked.size()).as("writes acknowledged over %d cycles", cycles).isGreaterThan(cycles * 10);
    // A clean start and stop folds everything the log holds into the files.
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      assertThat(server.stop()).isZero();
    }
    try (var segments = Files.list(dir.resolve("vault/.gram-wal"))) {
      assertThat(segments.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".wal"))).isEmpty();
    }
  }

  @Test
  void killsDuringTheStartUpScanOfALargeVaultAndDuringAnIndexRebuildLoseNothing() throws Exception {
    Path vaultDir = dir.resolve("vault");
    Vault generator = new Vault(new PathResolver(vaultDir, List.of()), new PatchOps(), Clock.systemUTC(), 8);
    generator.start().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    VaultGenerator.Result generated = VaultGenerator.generate(generator,
        new VaultGenerator.Spec(11).projects(20).documentsPerProject(100).recordsPerDocument(2).revisionsPerDocument(1)
            .placedPerDocument(1).crossLinkShare(0).relationShare(0).cycles(false));
    generator.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    Random random = new Random(5);
    for (int i = 0; i < 3; i++) {
      // During the start-up scan, then during a rebuild of an index that was deleted.
      if (i > 0) {
        dev.gram.testing.Trees.delete(dir.resolve("index"));
      }
      ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio");
      Thread.sleep(random.nextInt(800));
      server.kill();
      server.close();
    }
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      StatelessCalls calls = new StatelessCalls(server.mcpUrl(), "crash");
      VaultGenerator.Doc doc = generated.documents().get(generated.documents().size() - 1);
      JsonObject found = recallUntilFound(calls, doc.title());
      assertThat(found.getJsonArray("hits")).as("recall of %s after the kills", doc.title()).isNotEmpty();
      assertThat(server.stop()).isZero();
    }
    Vault check = new Vault(new PathResolver(vaultDir, List.of()), new PatchOps(), Clock.systemUTC(), 4,
        Vault.Durability.READ_ONLY);
    check.start().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    try {
      assertThat(check.documents()).hasSize(generated.documents().size());
      for (DocSnapshot s : check.documents()) {
        assertThat(s.failure()).as(s.path()).isNull();
      }
    } finally {
      check.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  private static void write(StatelessCalls calls, int writer, int cycle, boolean creating, AtomicBoolean stop,
      ConcurrentLinkedQueue<Ack> acked) {
    String path = "crash/d" + (writer % DOCS) + ".gram";
    for (int n = 0; !stop.get(); n++) {
      String word = "w" + cycle + "x" + writer + "x" + n + "q";
      try {
        if (creating) {
          String created = "crash/c" + cycle + "-" + writer + "-" + n + ".gram";
          JsonObject r = calls.call("gram_create", new JsonObject().put("path", created).put("base_revision", (Object) null)
              .put("title", "Created " + word).put("content", new JsonObject().put("records", new JsonArray().add(
                  new JsonObject().put("type", "event").put("id", "e-" + word)
                      .put("fields", new JsonObject().put("t", new JsonArray().add("Event " + word)))))));
          if (!r.containsKey("error")) {
            acked.add(new Ack(created, "e-" + word, word));
          }
          continue;
        }
        JsonObject got = calls.call("gram_get", new JsonObject().put("path", path).put("entity", "doc"));
        if (got.containsKey("error")) {
          calls.call("gram_create", new JsonObject().put("path", path).put("base_revision", (Object) null)
              .put("title", "Crash " + writer % DOCS).put("content", ""));
          continue;
        }
        JsonObject doc = got.getJsonObject("doc");
        JsonObject r = calls.call("gram_patch", new JsonObject().put("path", path)
            .put("base_revision", doc.getInteger("rev")).put("expected_hash", doc.getString("hash"))
            .put("request_id", "r-" + word)
            .put("operations", new JsonArray().add(new JsonObject().put("op", "add").put("record",
                new JsonObject().put("type", "event").put("id", "e-" + word)
                    .put("fields", new JsonObject().put("t", new JsonArray().add("Event " + word)))))));
        if (!r.containsKey("error")) {
          acked.add(new Ack(path, "e-" + word, word));
        } else {
          assertThat(r.getJsonObject("error").getString("code")).isEqualTo("STALE_REVISION");
        }
      } catch (IOException e) {
        return; // the server was killed
      }
    }
  }

  /** Reads the vault as the next start would (files plus the log), without taking the log. */
  private void checkEveryAcknowledgedWrite(ConcurrentLinkedQueue<Ack> acked, int cycle) throws Exception {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 4,
        Vault.Durability.READ_ONLY);
    vault.start().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    try {
      for (DocSnapshot s : vault.documents()) {
        assertThat(s.failure()).as("%s after the kill in cycle %d", s.path(), cycle).isNull();
      }
      for (Ack a : acked) {
        DocSnapshot s = vault.peek(a.path());
        assertThat(s).as("document %s after the kill in cycle %d", a.path(), cycle).isNotNull();
        assertThat(s.state().record(a.recordId())).as("acknowledged %s in %s, cycle %d", a.recordId(), a.path(), cycle)
            .isNotNull();
      }
    } finally {
      vault.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  /** Search runs beside the start: a document the scan has not indexed yet is found a moment later. */
  private static JsonObject recallUntilFound(StatelessCalls calls, String word) throws Exception {
    JsonObject last = null;
    for (int i = 0; i < 200; i++) {
      last = calls.call("gram_recall", new JsonObject().put("query", word).put("mode", "exact"));
      if (last.getJsonArray("hits") != null && !last.getJsonArray("hits").isEmpty()) {
        return last;
      }
      Thread.sleep(100);
    }
    return last;
  }
}
