package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.ProtocolMetrics;
import dev.gram.protocol.ServerInfo;
import dev.gram.testing.StdioClient;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The stdio transport over pipes: progress, cancellation and end of input, in-process. */
class StdioTransportTest {
  private Vertx vertx;
  private StdioClient client;
  private final CountDownLatch eof = new CountDownLatch(1);
  private final AtomicReference<CallContext> context = new AtomicReference<>();
  private final AtomicReference<Promise<JsonObject>> pending = new AtomicReference<>();

  private final class Hanging implements Tool {
    @Override
    public String name() {
      return "hanging";
    }

    @Override
    public String description() {
      return "reports progress, then waits to be released";
    }

    @Override
    public JsonObject inputSchema() {
      return new JsonObject().put("type", "object");
    }

    @Override
    public boolean readOnly() {
      return true;
    }

    @Override
    public Future<JsonObject> call(JsonObject arguments, CallContext ctx) {
      Promise<JsonObject> p = Promise.promise();
      context.set(ctx);
      pending.set(p);
      ctx.progress(1, null, "started");
      return p.future();
    }
  }

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    McpDispatcher dispatcher = new McpDispatcher(vertx, new ToolRegistry(List.of(new Hanging())),
        new ServerInfo("gram-mcp", "test", null), ProtocolMetrics.NONE);
    PipedOutputStream toServer = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream fromServer = new PipedInputStream(serverOut, 1 << 16);
    StdioTransport transport = new StdioTransport(dispatcher, serverIn, serverOut, 1 << 20, eof::countDown);
    vertx.deployVerticle(transport).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    client = new StdioClient(toServer, fromServer);
  }

  @AfterEach
  void stop() throws Exception {
    Promise<JsonObject> p = pending.get();
    if (p != null) {
      p.tryComplete(new JsonObject());
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void progressPrecedesTheAnswerOnStdout() {
    client.initialize("pipe-agent", "2025-11-25");
    CompletableFuture<JsonObject> answer = client.send(1, "tools/call",
        new JsonObject().put("name", "hanging").put("_meta", new JsonObject().put("progressToken", "pt")));
    JsonObject progress = client.nextNotification(Duration.ofSeconds(10));
    assertThat(progress.getString("method")).isEqualTo("notifications/progress");
    assertThat(progress.getJsonObject("params").getString("progressToken")).isEqualTo("pt");
    assertThat(answer).isNotDone();
    pending.get().complete(new JsonObject().put("agent", context.get().agent()));
    assertThat(answer.join().getJsonObject("result").getJsonObject("structuredContent").getString("agent"))
        .isEqualTo("pipe-agent");
  }

  @Test
  void aCancelledCallIsNeverAnsweredAndLaterCallsAre() throws Exception {
    client.initialize("pipe-agent", "2025-11-25");
    CompletableFuture<JsonObject> cancelled = client.send("gone", "tools/call", new JsonObject().put("name", "hanging"));
    long started = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (context.get() == null && System.nanoTime() < started) {
      Thread.sleep(10);
    }
    assertThat(context.get()).isNotNull();
    client.notify("notifications/cancelled", new JsonObject().put("requestId", "gone"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!context.get().cancelled() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(context.get().cancelled()).isTrue();
    pending.get().complete(new JsonObject());
    assertThat(client.request("ping", null).getJsonObject("result")).isEqualTo(new JsonObject());
    assertThat(cancelled).isNotDone();
    assertThat(client.lines()).noneMatch(l -> l.contains("\"gone\""));
  }

  @Test
  void endOfInputRunsTheEofActionButLetsCallsInFlightFinishAndAnswer() throws Exception {
    client.initialize("pipe-agent", "2025-11-25");
    CompletableFuture<JsonObject> answer = client.send("w", "tools/call", new JsonObject().put("name", "hanging"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (context.get() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    client.closeInput();
    assertThat(eof.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(context.get().cancelled()).as("a write in flight is not cancelled by end of input").isFalse();
    pending.get().complete(new JsonObject().put("written", true));
    assertThat(answer.join().getJsonObject("result").getJsonObject("structuredContent").getBoolean("written")).isTrue();
  }
}
