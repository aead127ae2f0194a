package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Once the index holds enough units and the clients are quiet, the server asks its own recall path
 * its warm-up questions: on a channel of its own (counted under transport {@code warmup}), every
 * one answered, nothing written, and a client served as before.
 */
class RecallWarmupTest {
  @TempDir Path dir;

  private static final Pattern WARMUP_CALLS =
      Pattern.compile("gram_tool_calls_total\\{[^}]*transport=\"warmup\"[^}]*\\} ([0-9.E]+)");

  @Test
  void asksItsQuestionsWhenQuietAndWritesNothing() throws Exception {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"))) {
      JsonArray revs = ingest(s);
      RecallWarmup warmup = s.server().warmup();
      long deadline = System.nanoTime() + 120_000_000_000L;
      // Background work gives way to agents' calls, not to the warm-up's: asked back to back,
      // they would keep the foreground busy for as long as the warm-up runs.
      dev.gram.async.Foreground foreground = s.server().services().foreground();
      // The ingest's last call is counted down just after its answer is handed to the transport,
      // so the client can be here before it is: watch from when the agents' calls are all done
      // (the warm-up waits for that too, so none of its questions is missed).
      while (foreground.inFlight() > 0 && warmup.answered() == 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      int busySeen = 0;
      while (!warmup.finished() && System.nanoTime() < deadline) {
        busySeen += foreground.inFlight() > 0 ? 1 : 0;
        Thread.sleep(1);
      }
      assertThat(busySeen).as("looks at the foreground that found a warm-up call in flight").isZero();
      int answered = warmup.answered();
      assertThat(answered).as("warm-up questions answered")
          .isBetween(RecallWarmup.MIN_CALLS, RecallWarmup.MAX_CALLS);
      Thread.sleep(1_500); // and no more after them
      assertThat(warmup.answered()).isEqualTo(answered);
      // On a channel of their own: the metrics count them under transport warmup, all answered.
      assertThat(warmupCalls(s.httpPort())).isEqualTo(answered);
      for (int d = 0; d < 12; d++) {
        JsonObject read = s.call("gram_read", new JsonObject().put("path", "team/plan" + d + ".gram")).ok();
        assertThat(read.getJsonObject("doc").getInteger("rev")).as("plan " + d).isEqualTo(revs.getInteger(d));
      }
      JsonObject hits = s.call("gram_recall", new JsonObject().put("query", "budget of migration 1107").put("mode", "keyword")).ok();
      assertThat(hits.getJsonArray("hits").getJsonArray(0).getString(0)).isEqualTo("team/plan11.gram#t7");
    }
  }

  @Test
  void readsTheVaultForItsQuestionsOffTheEventLoop() throws Exception {
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"))) {
      ingest(s);
      GramServer g = s.server();
      java.util.concurrent.CompletableFuture<Boolean> onEventLoop = new java.util.concurrent.CompletableFuture<>();
      // A second warm-up beside the server's own, whose reading of the vault is watched.
      RecallWarmup w = RecallWarmup.start(g.vertx(), g.dispatcher(), g.services().context().index(), () -> {
        onEventLoop.complete(io.vertx.core.Context.isOnEventLoopThread());
        return g.services().vault().documents();
      });
      try {
        assertThat(onEventLoop.get(60, java.util.concurrent.TimeUnit.SECONDS)).as("read on an event loop").isFalse();
      } finally {
        w.stop();
      }
    }
  }

  /** Twelve documents of 100 tasks each; their revisions. */
  private static JsonArray ingest(GramTestServer s) {
    JsonArray revs = new JsonArray();
    for (int d = 0; d < 12; d++) {
      String path = "team/plan" + d + ".gram";
      JsonObject doc = s.call("gram_create", new JsonObject().put("path", path).put("base_revision", (Object) null)
          .put("title", "Quarterly plan " + d).put("content", "# Goals\n\nShip the release.")).ok().getJsonObject("doc");
      JsonArray ops = new JsonArray();
      for (int r = 0; r < 100; r++) {
        ops.add(new JsonObject().put("op", "add").put("record", new JsonObject().put("type", "task").put("id", "t" + r)
            .put("fields", new JsonObject().put("t", new JsonArray().add("Review the budget of migration " + (d * 100 + r))))));
      }
      doc = s.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
          .put("expected_hash", doc.getString("hash")).put("request_id", "ingest-" + d).put("operations", ops)).ok()
          .getJsonObject("doc");
      revs.add(doc.getInteger("rev"));
    }
    return revs;
  }

  /** The warm-up's tool calls, every outcome, as /metrics counts them. */
  private static double warmupCalls(int port) throws Exception {
    String body = HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(java.time.Duration.ofSeconds(20)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
    double sum = 0;
    Matcher m = WARMUP_CALLS.matcher(body);
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
    }
    return sum;
  }
}
