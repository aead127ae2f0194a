package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's own lifecycle, in-process: hooks, shutdown triggers, the write-queue gauge. */
class GramServerTest {
  @TempDir Path dir;

  private ServerConfig config(String... extra) throws Exception {
    String[] base = {"--vault", dir.resolve("v").toString(), "--index", dir.resolve("i").toString(), "--port", "0"};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return ServerConfig.parse(args, Map.of());
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void stopRunsShutdownHooksLastFirstOnceAndCompletesStopped() throws Exception {
    GramServer server = await(GramServer.start(config("--no-stdio"), InputStream.nullInputStream(), new ByteArrayOutputStream()));
    List<String> ran = new CopyOnWriteArrayList<>();
    server.onShutdown(() -> { ran.add("store"); return Future.succeededFuture(); });
    server.onShutdown(() -> { ran.add("index"); return Future.failedFuture("index refused to close"); });
    server.onShutdown(() -> { ran.add("last"); return Future.succeededFuture(); });
    Future<Void> first = server.stop();
    assertThat(server.stop()).isSameAs(first);
    await(first);
    assertThat(server.stopped().succeeded()).isTrue();
    assertThat(ran).containsExactly("last", "index", "store");
  }

  @Test
  void endOfStdinStopsTheServer() throws Exception {
    PipedOutputStream feed = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(feed);
    GramServer server = await(GramServer.start(config("--no-http"), in, new ByteArrayOutputStream()));
    assertThat(server.stopped().isComplete()).isFalse();
    feed.close();
    await(server.stopped());
  }

  @Test
  void theWriteQueueDepthGaugeReadsTheStoresSupplier() throws Exception {
    GramServer server = await(GramServer.start(config("--no-stdio"), InputStream.nullInputStream(), new ByteArrayOutputStream()));
    try {
      server.writeQueueDepth(() -> 7);
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).contains("gram_write_queue_depth 7.0");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void aPortInUseFailsStartCleanly() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      ServerConfig cfg = ServerConfig.parse(new String[] {
          "--vault", dir.resolve("v").toString(), "--index", dir.resolve("i").toString(),
          "--no-stdio", "--port", Integer.toString(taken.getLocalPort())}, Map.of());
      Future<GramServer> start = GramServer.start(cfg, InputStream.nullInputStream(), new ByteArrayOutputStream());
      try {
        await(start);
        throw new AssertionError("start should have failed");
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).hasMessageContaining("ddress");
      }
    }
  }
}
