package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /metrics has what an operator's dashboard needs besides the tool meters. */
class MetricsTest {
  @TempDir Path dir;

  @Test
  void buildInfoIndexCountsAndTheJvmAndProcessAreScraped() throws Exception {
    ServerConfig cfg = ServerConfig.parse(new String[] {"--vault", dir.resolve("v").toString(), "--no-stdio",
        "--port", "0", "--no-semantic", "--no-welcome"}, Map.of());
    GramServer server = GramServer.start(cfg, InputStream.nullInputStream(), new ByteArrayOutputStream())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    try {
      String body = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(body).contains(
          "gram_build_info{version=\"" + BuildInfo.version() + "\"} 1",
          "gram_index_documents{state=\"indexed\"}",
          "gram_index_documents{state=\"pending\"}",
          "gram_index_documents{state=\"failed\"}",
          "gram_index_embedded_chunks",
          "gram_index_unembedded_chunks",
          "gram_index_lag_commits 0",
          "gram_index_lag_seconds",
          "gram_semantic_available 0",
          "jvm_memory_used_bytes",
          "jvm_threads_live_threads",
          "process_uptime_seconds",
          "process_cpu_usage");
    } finally {
      server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
