package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Http;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the process ends: end of stdin, SIGTERM, SIGINT, and the flags that change that. */
class LifecycleIT {
  @TempDir Path dir;

  @Test
  void endOfStdinAnswersWhatWasSentThenExitsZero() {
    ServerProcess server = ServerProcess.start(dir);
    StdioClient stdio = server.stdio();
    CompletableFuture<JsonObject> answer =
        stdio.send("last", "tools/call", StdioClient.modern("eof").put("name", "gram_capabilities"));
    stdio.closeInput();
    assertThat(server.waitForExit(Duration.ofSeconds(20))).isZero();
    assertThat(answer.join().getJsonObject("result").getString("resultType")).isEqualTo("complete");
    assertThat(server.stderr()).contains("stdin closed");
  }

  @Test
  void sigtermExitsZero() {
    ServerProcess server = ServerProcess.start(dir);
    assertThat(server.stop()).isZero();
  }

  @Test
  void sigintExitsZero() throws Exception {
    ServerProcess server = ServerProcess.start(dir);
    Process kill = new ProcessBuilder("kill", "-INT", Integer.toString(server.pid())).start();
    assertThat(kill.waitFor()).isZero();
    assertThat(server.waitForExit(Duration.ofSeconds(30))).isZero();
  }

  @Test
  void withStdioOffTheEndOfStdinDoesNotStopTheServerAndStdoutStaysEmpty() throws IOException {
    try (ServerProcess server = ServerProcess.start(dir, "--no-stdio")) {
      server.stdin().close();
      sleep(700);
      assertThat(server.isAlive()).isTrue();
      assertThat(Http.send(HttpRequest.newBuilder(server.baseUrl().resolve("healthz")).GET(), Map.of()).statusCode())
          .isEqualTo(200);
      assertThat(server.stdout().available()).as("bytes on stdout").isZero();
      assertThat(server.stop()).isZero();
    }
  }

  @Test
  void aNonLoopbackHostWithoutATokenIsRefusedAtStartup() throws Exception {
    List<String> cmd = ServerProcess.command(dir.resolve("v"), dir.resolve("i"), "--host", "0.0.0.0", "--port", "0");
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("GRAM_MCP_TOKEN");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isEqualTo(2);
    assertThat(output).contains("token");
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
