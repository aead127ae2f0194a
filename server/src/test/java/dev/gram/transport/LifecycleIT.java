package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gram.testing.Http;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
    assumeSigintDelivered();
    try (ServerProcess server = ServerProcess.start(dir)) {
      Process kill = new ProcessBuilder("kill", "-INT", Integer.toString(server.pid())).start();
      assertThat(kill.waitFor()).isZero();
      assertThat(server.waitForExit(Duration.ofSeconds(30))).isZero();
    }
  }

  /**
   * A signal while the server is still starting (as soon as it has logged its callers, early in
   * its start) stops it as any other: the handlers are in place before the start begins.
   * Installed after it, the signal started the JVM's own shutdown beside the start, and ONNX
   * Runtime's hook freed its environment while the model loaded: exit 130, or a crash.
   */
  @Test
  void sigintWhileStartingExitsZero() throws Exception {
    assumeSigintDelivered();
    Path stderr = dir.resolve("stderr.log");
    List<String> cmd = ServerProcess.command(dir.resolve("vault"), dir.resolve("index"), "--port", "0");
    Process p = new ProcessBuilder(cmd).redirectError(stderr.toFile()).start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!(Files.exists(stderr) && Files.readString(stderr).contains("callers:"))) {
        assertThat(p.isAlive()).as("server alive while starting").isTrue();
        assertThat(System.nanoTime()).as("the callers' line within 60 s").isLessThan(deadline);
        sleep(5);
      }
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
      assertThat(kill.waitFor()).isZero();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("exited within 30 s").isTrue();
      assertThat(p.exitValue()).as("exit status; stderr:%n%s", Files.readString(stderr)).isZero();
      assertThat(Files.readString(stderr)).contains("SIGINT: stopping");
    } finally {
      p.destroyForcibly();
    }
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

  /**
   * Skips a SIGINT test when this JVM was started with SIGINT ignored (a shell's background job
   * without job control, say): the server inherits that, and rightly keeps ignoring it.
   */
  private static void assumeSigintDelivered() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        long ignored = Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
        assumeTrue((ignored & (1L << (2 - 1))) == 0,
            "SIGINT is ignored in this process (started in the background without job control?);"
                + " a server started from it ignores SIGINT too");
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
