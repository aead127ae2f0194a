package dev.gram.server.cli;

import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code train} (hidden): a training run for the JVM's class-data archive, which the build runs
 * with {@code -XX:ArchiveClassesAtExit} (JDK 17 to 24, {@code gram-mcp.jar.jsa}) or {@code
 * -XX:AOTCacheOutput} (JDK 25 and later, {@code gram-mcp.jar.aot}; the pom's {@code aot-cache}
 * profile) so that the launcher's first start is as quick as its later ones. It serves a scratch
 * vault of its own in this process over stdio, with the server's default flags, and acts as a
 * sidecar's runtime would:
 * the handshake, the tool list, and each kind of call a few hundred times (writes, reads, recalls
 * in every mode once the model is up, resources and prompts), so that every class those load is
 * in the archive (and, on JDK 25, the methods they run are profiled). Then stdin closes and the
 * server stops as it always does.
 */
@Command(
    name = "train",
    hidden = true,
    header = "a training run for the class-data archive (run by the build)",
    customSynopsis = "Usage: java -XX:ArchiveClassesAtExit=<file> -jar gram-mcp.jar train")
final class TrainCommand implements Callable<Integer> {
  @Option(names = "--model-wait-seconds", paramLabel = "<n>",
      description = "how long to wait for the embedding model before the semantic calls (default 60)")
  int modelWaitSeconds = 60;

  @Override
  public Integer call() {
    LogOptions.defaultTo("warn");
    Path vault = null;
    try {
      // A scratch vault of its own, removed at the end: never a folder someone named.
      vault = Files.createTempDirectory("gram-train-");
      noteJvm();
      train(vault);
    } catch (Exception | AssertionError e) {
      // An archive of what loaded so far still helps; a build never fails for want of one.
      System.err.println("gram-mcp: the training run ended early: " + Exit.describe(e));
    } finally {
      deleteQuietly(vault);
    }
    return Exit.OK;
  }

  /** Beside the archive this JVM will write at exit: which JVM it is good for ({@link ArchiveRelaunch}). */
  private static void noteJvm() throws IOException {
    for (String a : ProcessHandle.current().info().arguments().orElse(new String[0])) {
      for (String option : new String[] {"-XX:ArchiveClassesAtExit=", "-XX:AOTCacheOutput="}) {
        if (a.startsWith(option)) {
          Path archive = Path.of(a.substring(option.length()));
          Files.writeString(ArchiveRelaunch.jvmFile(archive), ArchiveRelaunch.jvm(jarOfThisProcess()) + "\n");
        }
      }
    }
  }

  private static Path jarOfThisProcess() {
    String[] args = ProcessHandle.current().info().arguments().orElse(new String[0]);
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-jar")) {
        return Path.of(args[i + 1]);
      }
    }
    throw new IllegalStateException("the training run is started with java -jar");
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (var files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("gram-mcp: could not remove the training vault " + dir + ": " + e.getMessage());
    }
  }

  private void train(Path vault) throws Exception {
    ServerConfig config = ServerConfig.parse(new String[] {"--vault", vault.toString(), "--port", "0"}, Map.of());
    PipedOutputStream toServer = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream fromServer = new PipedInputStream(serverOut, 1 << 20);
    GramServer server = GramServer.start(config, serverIn, serverOut).toCompletionStage().toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    Session s = new Session(toServer, new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8)));
    s.request("initialize", new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "gram-train").put("version", "1")));
    s.notify("notifications/initialized");
    s.request("tools/list", new JsonObject());
    s.tool("gram_profile", new JsonObject());
    for (int i = 0; i < 300; i++) {
      s.tool("gram_capabilities", new JsonObject());
      s.request("ping", new JsonObject());
    }
    JsonObject doc = s.tool("gram_create", new JsonObject().put("path", "train/plan.gram").put("base_revision", (Object) null)
        .put("title", "Training plan").put("content", "# Goals\n\nShip the release checklist.\n\n## Notes\n\nA note."))
        .getJsonObject("doc");
    for (int i = 0; i < 200; i++) {
      JsonObject op = i % 2 == 0
          ? new JsonObject().put("op", "add").put("record", new JsonObject().put("type", i % 4 == 0 ? "task" : "decision")
              .put("id", "r" + i).put("fields", new JsonObject().put("t", new JsonArray().add("Review the migration " + i))
                  .put("d", new JsonArray().add("Latency budget and supplier risk " + i))))
          : new JsonObject().put("op", "set").put("entity", "doc").put("key", "status").put("value", "step " + i);
      doc = s.tool("gram_patch", new JsonObject().put("path", "train/plan.gram").put("base_revision", doc.getInteger("rev"))
          .put("expected_hash", doc.getString("hash")).put("request_id", "train-" + i)
          .put("operations", new JsonArray().add(op))).getJsonObject("doc");
    }
    for (int i = 0; i < 100; i++) {
      s.tool("gram_get", new JsonObject().put("path", "train/plan.gram").put("entity", "r" + (2 * (i % 100))));
      s.tool("gram_read", new JsonObject().put("path", "train/plan.gram"));
      s.tool("gram_list", new JsonObject().put("path", "train/"));
      s.tool("gram_recall", new JsonObject().put("query", "migration review").put("mode", "keyword"));
      s.tool("gram_recall", new JsonObject().put("query", "Review the migration " + (2 * i)).put("mode", "exact"));
    }
    s.tool("gram_changes", new JsonObject().put("path", "train/plan.gram").put("since_revision", 0));
    s.tool("gram_context", new JsonObject().put("ids", new JsonArray().add(new JsonObject().put("path", "train/plan.gram")
        .put("entity", "r0"))));
    s.request("resources/list", new JsonObject());
    s.request("resources/read", new JsonObject().put("uri", "gram://train/plan.gram"));
    s.request("prompts/list", new JsonObject());
    long modelDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(modelWaitSeconds);
    while (!"available".equals(s.tool("gram_capabilities", new JsonObject()).getJsonObject("semantic").getString("status"))
        && System.nanoTime() < modelDeadline) {
      Thread.sleep(100);
    }
    for (int i = 0; i < 50; i++) {
      for (String mode : new String[] {"semantic", "hybrid", "auto"}) {
        s.tool("gram_recall", new JsonObject().put("query", "what did we decide about the migration").put("mode", mode));
      }
    }
    toServer.close();
    server.stopped().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /** One request at a time on the server's stdio, as a sidecar's runtime sends them. */
  private static final class Session {
    private final OutputStream in;
    private final BufferedReader out;
    private long ids;

    Session(OutputStream in, BufferedReader out) {
      this.in = in;
      this.out = out;
    }

    void notify(String method) throws IOException {
      in.write(("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    JsonObject request(String method, JsonObject params) throws IOException {
      long id = ++ids;
      in.write((new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params).encode()
          + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      while (true) {
        String line = out.readLine();
        if (line == null) {
          throw new IOException("the server stopped answering");
        }
        JsonObject m = new JsonObject(line);
        if (m.getValue("id") instanceof Number n && n.longValue() == id) {
          if (m.getJsonObject("result") == null) {
            throw new IOException(method + " answered " + m.getValue("error"));
          }
          return m.getJsonObject("result");
        }
      }
    }

    JsonObject tool(String name, JsonObject args) throws IOException {
      JsonObject r = request("tools/call", new JsonObject().put("name", name).put("arguments", args));
      if (Boolean.TRUE.equals(r.getBoolean("isError"))) {
        throw new IOException(name + " failed: " + r.getValue("structuredContent"));
      }
      return r.getJsonObject("structuredContent");
    }
  }
}
