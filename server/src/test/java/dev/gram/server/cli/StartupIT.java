package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.server.BuildInfo;
import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting the server: what it says, where it keeps things, and each start-up error in one line. */
class StartupIT {
  @TempDir Path dir;

  @Test
  void aSecondServerOnAVaultThatAnotherServesStopsWithALineNamingIt() throws IOException {
    try (ServerProcess first = ServerProcess.start(dir, "--no-semantic", "--no-stdio")) {
      Cli.Run r = Cli.run(dir, "--vault", first.vault().toString(), "--index", dir.resolve("other-index").toString(),
          "--port", "0", "--no-semantic", "--no-stdio");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.err()).contains("gram-mcp: could not start: the vault " + first.vault()
          + " is being served by another gram-mcp process (pid " + first.pid() + "): connect to that server");
      assertThat(r.err()).doesNotContain("\tat ");
      assertThat(first.isAlive()).isTrue();
    }
  }

  @Test
  void aVaultThatIsAFileRefusesToStart() throws IOException {
    Path file = Files.writeString(dir.resolve("vault.txt"), "not a folder");
    Cli.Run r = Cli.run(dir, "--vault", file.toString(), "--port", "0", "--no-semantic");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("gram-mcp: could not start: the vault " + file + " is a file, not a folder");
    assertThat(r.err()).doesNotContain("Exception", "\tat ");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void anIndexPathThatIsAFileRefusesToStartBeforeTheVaultIsCreated() throws IOException {
    Path file = Files.writeString(dir.resolve("index.txt"), "not a folder");
    Cli.Run r = Cli.run(dir, "--vault", dir.resolve("v").toString(), "--index", file.toString(), "--port", "0");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("the search index path " + file + " is a file, not a folder");
    assertThat(r.err()).doesNotContain("\tat ");
    assertThat(dir.resolve("v")).doesNotExist();
  }

  @Test
  void aVaultThatCannotBeReadStopsTheServerInsteadOfServingErrors() throws IOException {
    // A symbolic link to nowhere: the scan cannot create or read the folder.
    Path vault = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere/at/all"));
    Files.writeString(dir.resolve("nowhere"), "a file where the link needs a folder");
    Cli.Run r = Cli.run(dir, "--vault", vault.toString(), "--index", dir.resolve("i").toString(), "--port", "0", "--no-stdio",
        "--no-semantic");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("gram-mcp: the vault " + vault + " cannot be read: ", "; stopping");
    assertThat(r.err()).doesNotContain("\tat ");
  }

  @Test
  void aTakenPortIsOneLineNamingAddressAndPortAndNothingIsWritten() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      Cli.Run r = Cli.run(dir, "--vault", dir.resolve("v").toString(), "--no-stdio", "--port", Integer.toString(port));
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.err().strip().lines()).hasSize(1);
      assertThat(r.err()).contains("cannot listen on 127.0.0.1:" + port + ": address already in use");
      assertThat(dir.resolve("v")).doesNotExist();
    }
  }

  @Test
  void startUpSaysWhatIsServedWhereAndTheVersionReachesServerInfo() throws Exception {
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic")) {
      String err = awaitStderr(server, "/metrics");
      String base = server.origin();
      assertThat(err).contains("gram-mcp " + BuildInfo.version() + ": vault " + server.vault().toAbsolutePath(),
          "search index " + server.index().toAbsolutePath(), "serving stdio", base + "/mcp", base + "/sse",
          base + "/healthz", base + "/metrics");
      HttpResponse<String> init = HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.mcpUrl())
              .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", 1)
                  .put("method", "initialize").put("params", new JsonObject().put("protocolVersion", "2025-06-18")
                      .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "t").put("version", "1")))
                  .encode())).build(),
          HttpResponse.BodyHandlers.ofString());
      String body = init.body().contains("data:") ? init.body().substring(init.body().indexOf("data:") + 5).strip() : init.body();
      assertThat(new JsonObject(body).getJsonObject("result").getJsonObject("serverInfo").getString("version"))
          .isEqualTo(BuildInfo.version()).isNotEqualTo("dev");

      Cli.Run status = Cli.run(dir, "status", "--url", base);
      assertThat(status.exit()).as(status.toString()).isZero();
      assertThat(status.out()).contains("gram-mcp " + BuildInfo.version(), "health     ok", "documents indexed",
          "semantic   unavailable: ", "sessions   http 1"); // the initialize above
      Cli.Run busy = Cli.run(dir, "reindex", "--vault", server.vault().toString(), "--index", server.index().toString());
      assertThat(busy.exit()).isEqualTo(1);
      assertThat(busy.err()).contains("is in use by a running server");
    }
    Cli.Run gone = Cli.run(dir, "status", "--url", "http://127.0.0.1:1");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).contains("cannot reach http://127.0.0.1:1: connection refused");
  }

  @Test
  void withoutIndexTheIndexLivesInTheVaultNotWhereTheProcessStarted() throws Exception {
    Path cwd = Files.createDirectories(dir.resolve("somewhere"));
    Path vault = dir.resolve("vault");
    Process p = new ProcessBuilder(ServerProcess.java(), "-jar", ServerProcess.jar().toString(), "--vault", vault.toString(),
            "--no-http", "--no-semantic", "--log-level", "warn")
        .directory(cwd.toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
    // A client's handshake (the index opens after it), then stdin closes: the server stops.
    var in = p.getOutputStream();
    in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    in.flush();
    var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.contains("\"id\":2")) {
      // the initialize answer
    }
    assertThat(line).contains("\"tools\"");
    in.close();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String err = Files.readString(dir.resolve("err.txt"));
    assertThat(p.exitValue()).as(err).isZero();
    assertThat(vault.resolve(".gram-index")).isDirectory();
    assertThat(cwd.resolve("index")).doesNotExist();
    assertThat(err).contains("search index " + vault.resolve(".gram-index"));
    // --log-level warn: the info lines of start-up are gone; the printed start-up lines stay.
    assertThat(err).doesNotContain(" INFO ");
  }

  private static String awaitStderr(ServerProcess server, String text) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!server.stderr().contains(text) && System.nanoTime() < deadline) {
      Thread.sleep(25);
    }
    return server.stderr();
  }

}
