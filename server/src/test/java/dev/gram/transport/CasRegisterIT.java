package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.History;
import dev.gram.format.Revision;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The document as a compare-and-swap register, checked the way Jepsen checks one: 32 clients
 * over Streamable HTTP each read a counter and write it plus one against the revision and hash
 * they read, retrying on {@code STALE_REVISION}, until {@value #DEFAULT_INCREMENTS} increments
 * are acknowledged ({@code -Dgram.register.increments=N}; the soak profile runs 10,000). The
 * final value must equal the acknowledged increments, the history must be one verified chain in
 * which every acknowledged request_id appears exactly once and nothing else was committed, and
 * after a SIGKILL a retried request must get its original receipt back.
 */
class CasRegisterIT {
  static final int DEFAULT_INCREMENTS = 2_000;
  static final String PATH = "register/counter.gram";

  @TempDir Path dir;

  private final Map<URI, StatelessCalls> calls = new java.util.concurrent.ConcurrentHashMap<>();

  record Ack(String requestId, int rev, String hash, JsonObject arguments) {}

  @Test
  void everyAcknowledgedIncrementIsThereExactlyOnce() throws Exception {
    int target = Integer.getInteger("gram.register.increments", DEFAULT_INCREMENTS);
    ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    AtomicInteger conflicts = new AtomicInteger();
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      URI mcp = server.mcpUrl();
      JsonObject created = call(mcp, "gram_create", new JsonObject().put("path", PATH).put("base_revision", (Object) null)
          .put("title", "Counter").put("content", new JsonObject().put("records", new JsonArray().add(
              new JsonObject().put("type", "metric").put("id", "c1")
                  .put("fields", new JsonObject().put("t", new JsonArray().add("Counter")).put("v", new JsonArray().add("0")))))));
      assertThat(created.containsKey("error")).as(created.encode()).isFalse();
      ExecutorService pool = Executors.newFixedThreadPool(32);
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < 32; c++) {
        int client = c;
        clients.add(pool.submit(() -> {
          int n = 0;
          while (acks.size() < target) {
            JsonObject got = call(mcp, "gram_get", new JsonObject().put("path", PATH).put("entity", "c1"));
            JsonObject doc = got.getJsonObject("doc");
            int value = Integer.parseInt(got.getJsonObject("entity").getJsonObject("fields").getJsonArray("v").getString(0));
            String requestId = "c" + client + "-" + (n++);
            JsonObject args = new JsonObject().put("path", PATH).put("base_revision", doc.getInteger("rev"))
                .put("expected_hash", doc.getString("hash")).put("request_id", requestId)
                .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "c1")
                    .put("key", "v").put("value", Integer.toString(value + 1))));
            JsonObject r = call(mcp, "gram_patch", args);
            if (r.containsKey("error")) {
              assertThat(r.getJsonObject("error").getString("code")).as(r.encode()).isEqualTo("STALE_REVISION");
              conflicts.incrementAndGet();
            } else {
              acks.add(new Ack(requestId, r.getJsonObject("doc").getInteger("rev"), r.getJsonObject("doc").getString("hash"), args));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : clients) {
        f.get();
      }
      pool.shutdown();
      JsonObject last = call(mcp, "gram_get", new JsonObject().put("path", PATH).put("entity", "c1"));
      int value = Integer.parseInt(last.getJsonObject("entity").getJsonObject("fields").getJsonArray("v").getString(0));
      assertThat(value).as("the counter after %d conflicts", conflicts.get()).isEqualTo(acks.size());
      assertThat(last.getJsonObject("doc").getInteger("rev")).isEqualTo(acks.size());
      assertThat(server.stop()).isZero();
    }
    // The file after a clean stop: one verified chain, every acknowledged request_id once, nothing else.
    GramFile file = GramParser.parseOrThrow(Files.readString(dir.resolve("vault").resolve(PATH)));
    History h = History.verify(file.history(), file.headRev(), file.headChain());
    Map<String, Integer> seen = new HashMap<>();
    for (Revision r : h.revisions()) {
      if (r.requestId() != null) {
        seen.merge(r.requestId(), 1, Integer::sum);
      }
    }
    Map<String, Integer> expected = new HashMap<>();
    for (Ack a : acks) {
      expected.put(a.requestId(), 1);
      assertThat(h.revision(a.rev()).requestId()).isEqualTo(a.requestId());
      assertThat(h.revision(a.rev()).shortHash()).isEqualTo(a.hash());
    }
    assertThat(seen).isEqualTo(expected);

    // Ten more increments that live only in the log (no checkpoint for an hour), then SIGKILL:
    // a retry of the last one after the restart gets its original receipt.
    Ack lastAck;
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio",
        "--checkpoint-lag-ms", "3600000")) {
      lastAck = null;
      for (int i = 0; i < 10; i++) {
        JsonObject got = call(server.mcpUrl(), "gram_get", new JsonObject().put("path", PATH).put("entity", "c1"));
        int value = Integer.parseInt(got.getJsonObject("entity").getJsonObject("fields").getJsonArray("v").getString(0));
        JsonObject args = new JsonObject().put("path", PATH).put("base_revision", got.getJsonObject("doc").getInteger("rev"))
            .put("expected_hash", got.getJsonObject("doc").getString("hash")).put("request_id", "after-" + i)
            .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "c1")
                .put("key", "v").put("value", Integer.toString(value + 1))));
        JsonObject r = call(server.mcpUrl(), "gram_patch", args);
        lastAck = new Ack("after-" + i, r.getJsonObject("doc").getInteger("rev"), r.getJsonObject("doc").getString("hash"), args);
      }
      server.kill();
    }
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      JsonObject again = call(server.mcpUrl(), "gram_patch", lastAck.arguments());
      assertThat(again.containsKey("error")).as(again.encode()).isFalse();
      assertThat(again.getJsonObject("doc").getInteger("rev")).isEqualTo(lastAck.rev());
      assertThat(again.getJsonObject("doc").getString("hash")).isEqualTo(lastAck.hash());
      JsonObject got = call(server.mcpUrl(), "gram_get", new JsonObject().put("path", PATH).put("entity", "c1"));
      assertThat(got.getJsonObject("entity").getJsonObject("fields").getJsonArray("v").getString(0))
          .isEqualTo(Integer.toString(acks.size() + 10));
    }
  }

  /** A stateless (2026-07-28) tools/call; the structured content, or the error object under "error". */
  private JsonObject call(URI mcp, String tool, JsonObject arguments) {
    try {
      return calls.computeIfAbsent(mcp, u -> new StatelessCalls(u, "register")).call(tool, arguments);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(tool + ": " + e, e);
    }
  }
}
