package dev.gram.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server under test as a separate process, started from its jar the way agents run it:
 * {@code java -jar <gram.jar> --vault <dir> --index <dir> …}. The conformance module knows the
 * server only as this command line and its answers; the jar's path comes from the system property
 * {@code gram.jar}, which the module's pom sets to the root's {@code target/gram-mcp.jar}.
 */
final class ServerJar implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("gram-mcp: listening on (http://\\S+)/mcp");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path stderrFile;
  private final URI base;

  private ServerJar(Process process, Path stderrFile, URI base) {
    this.process = process;
    this.stderrFile = stderrFile;
    this.base = base;
  }

  /** The jar under test, from {@code -Dgram.jar}; fails clearly when it was not built. */
  static Path jar() {
    String p = System.getProperty("gram.jar");
    if (p == null || p.isBlank()) {
      throw new IllegalStateException(
          "system property gram.jar is not set: run the integration tests with `mvn verify`, which"
              + " passes the path of the server's jar (target/gram-mcp.jar at the repository root)");
    }
    Path jar = Path.of(p);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "server jar " + jar + " does not exist: build it at the repository root with"
              + " `mvn -B -DskipTests -pl server package`, or pass -Dgram.jar=<path>");
    }
    return jar;
  }

  /** The command line that runs the server with these folders and extra arguments. */
  static List<String> command(Path vault, Path index, String... extraArgs) {
    List<String> cmd = new ArrayList<>();
    // The java of the running JVM, so the server runs on the same Java as the tests.
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-jar");
    cmd.add(jar().toString());
    cmd.add("--vault");
    cmd.add(vault.toString());
    cmd.add("--index");
    cmd.add(index.toString());
    cmd.addAll(Arrays.asList(extraArgs));
    return cmd;
  }

  /**
   * Starts the server over HTTP on a free port with its vault and index under {@code dir}, and
   * waits for the line on stderr that says where it listens.
   */
  static ServerJar startHttp(Path dir, String... extraArgs) {
    try {
      Path vault = Files.createDirectories(dir.resolve("vault"));
      Path index = Files.createDirectories(dir.resolve("index"));
      Path stderr = Files.createTempFile(dir, "server-stderr", ".log");
      List<String> extra = new ArrayList<>(List.of("--port", "0"));
      extra.addAll(Arrays.asList(extraArgs));
      ProcessBuilder pb = new ProcessBuilder(command(vault, index, extra.toArray(String[]::new)));
      pb.redirectError(stderr.toFile());
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      try {
        return new ServerJar(p, stderr, awaitListening(p, stderr));
      } catch (RuntimeException | IOException e) {
        p.destroyForcibly();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static URI awaitListening(Process p, Path stderr) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String err = Files.readString(stderr, StandardCharsets.UTF_8);
      Matcher m = LISTENING.matcher(err);
      if (m.find()) {
        return URI.create(m.group(1) + "/");
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("server exited with status " + p.exitValue() + " before listening:\n" + err);
      }
      try {
        Thread.sleep(25);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException(
        "server did not print its listening line within " + START_TIMEOUT + ":\n"
            + Files.readString(stderr, StandardCharsets.UTF_8));
  }

  /** The Streamable HTTP endpoint, {@code http://127.0.0.1:<port>/mcp}. */
  URI mcpUrl() {
    return base.resolve("mcp");
  }

  /** The legacy HTTP+SSE stream, {@code http://127.0.0.1:<port>/sse}. */
  URI sseUrl() {
    return base.resolve("sse");
  }

  /** Everything the server wrote to stderr so far. */
  String stderr() {
    try {
      return Files.readString(stderrFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited within 15 s. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
