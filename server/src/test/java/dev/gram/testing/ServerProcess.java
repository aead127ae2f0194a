package dev.gram.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * The built server jar running as a separate process, the way agents run it: {@code java -jar
 * gram-mcp.jar --vault <dir> --index <dir> --port 0} plus any extra arguments.
 *
 * <p>The jar's path comes from the system property {@code gram.jar} (failsafe sets it to {@code
 * target/gram-mcp.jar}); a missing jar fails with a message saying how to build it. stderr goes to
 * a file ({@link #stderr()}); stdin and stdout stay connected for raw stdio JSON-RPC ({@link
 * #stdin()}, {@link #stdout()}, or {@link #stdio()} for a small client). Closing stdin makes the
 * server exit, so keep it open until you mean that.
 *
 * <pre>{@code
 * try (ServerProcess server = ServerProcess.start(tempDir)) {
 *   HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.mcpUrl())...);
 *   assertThat(server.stop()).isZero();   // SIGTERM, exit status
 * }
 * }</pre>
 */
public final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("gram-mcp: listening on (http://\\S+)/mcp");
  /** How long a start may take; {@code -Dgram.serverStartSeconds} lengthens it on a loaded machine. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(Integer.getInteger("gram.serverStartSeconds", 30));

  private final Process process;
  private final Path stderrFile;
  private final Path vault;
  private final Path index;
  private final URI base;
  private StdioClient stdio;

  private ServerProcess(Process process, Path stderrFile, Path vault, Path index, URI base) {
    this.process = process;
    this.stderrFile = stderrFile;
    this.vault = vault;
    this.index = index;
    this.base = base;
  }

  /** The jar under test, from {@code -Dgram.jar}; fails clearly when it was not built. */
  public static Path jar() {
    String p = System.getProperty("gram.jar");
    if (p == null || p.isBlank()) {
      throw new IllegalStateException(
          "system property gram.jar is not set: run integration tests with `mvn verify`, which"
              + " builds target/gram-mcp.jar and passes its path");
    }
    Path jar = Path.of(p);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "server jar " + jar + " does not exist: build it with `mvn -B package -DskipTests`");
    }
    return jar;
  }

  /** The java launcher of the running JVM, so the server runs on the same Java as the tests. */
  public static String java() {
    // -Dgram.java: a benchmark of the server on another JVM than the one running the benchmark.
    return System.getProperty("gram.java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** The command line that runs the server with these folders and extra arguments. */
  public static List<String> command(Path vault, Path index, String... extraArgs) {
    return command(List.of(), vault, index, extraArgs);
  }

  /** As {@link #command(Path, Path, String...)}, with JVM options of the test's own first. */
  public static List<String> command(List<String> jvmArgs, Path vault, Path index, String... extraArgs) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.addAll(jvmArgs);
    // Extra JVM options for the server, e.g. a profiler in a benchmark run.
    String jvm = System.getProperty("gram.serverJvmArgs", "").strip();
    if (!jvm.isEmpty()) {
      cmd.addAll(Arrays.asList(jvm.split("\\s+")));
    }
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
   * Starts the server with its vault and index under {@code dir}, HTTP on a free port (unless
   * {@code extraArgs} say otherwise), and waits until HTTP listens (when HTTP is on).
   */
  public static ServerProcess start(Path dir, String... extraArgs) {
    try {
      Path vault = Files.createDirectories(dir.resolve("vault"));
      Path index = Files.createDirectories(dir.resolve("index"));
      Path stderr = Files.createTempFile(dir, "server-stderr", ".log");
      List<String> extra = new ArrayList<>();
      extra.add("--port");
      extra.add("0");
      extra.addAll(Arrays.asList(extraArgs));
      ProcessBuilder pb = new ProcessBuilder(command(vault, index, extra.toArray(String[]::new)));
      pb.redirectError(stderr.toFile());
      Process p = pb.start();
      boolean http = !extra.contains("--no-http");
      URI base = http ? awaitListening(p, stderr) : null;
      return new ServerProcess(p, stderr, vault, index, base);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts a server on a given vault and index (several processes on one vault: the nodes of a
   * cluster), with JVM options, its stderr in {@code stderr}; waits until HTTP listens.
   */
  public static ServerProcess start(
      Path vault, Path index, Path stderr, List<String> jvmArgs, String... extraArgs) {
    try {
      Files.createDirectories(vault);
      Files.createDirectories(index.getParent());
      List<String> extra = new ArrayList<>();
      extra.add("--port");
      extra.add("0");
      extra.addAll(Arrays.asList(extraArgs));
      ProcessBuilder pb = new ProcessBuilder(command(jvmArgs, vault, index, extra.toArray(String[]::new)));
      long from = Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.UTF_8).length() : 0;
      pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
      Process p = pb.start();
      return new ServerProcess(p, stderr, vault, index, awaitListening(p, stderr, from));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static URI awaitListening(Process p, Path stderr) throws IOException {
    return awaitListening(p, stderr, 0);
  }

  /** Waits for the listening line written after {@code from} bytes of the stderr file. */
  private static URI awaitListening(Process p, Path stderr, long from) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String all = Files.readString(stderr, StandardCharsets.UTF_8);
      String err = all.substring((int) Math.min(from, all.length()));
      Matcher m = LISTENING.matcher(err);
      if (m.find()) {
        return URI.create(m.group(1) + "/");
      }
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "server exited with status " + p.exitValue() + " before listening:\n" + err);
      }
      sleep(25);
    }
    p.destroyForcibly();
    throw new IllegalStateException(
        "server did not print its listening line within " + START_TIMEOUT + ":\n"
            + Files.readString(stderr, StandardCharsets.UTF_8));
  }

  /** {@code http://127.0.0.1:<port>/}; fails when HTTP is off. */
  public URI baseUrl() {
    if (base == null) {
      throw new IllegalStateException("this server was started with --no-http");
    }
    return base;
  }

  /** The Streamable HTTP endpoint, {@code .../mcp}. */
  public URI mcpUrl() {
    return baseUrl().resolve("mcp");
  }

  /** The legacy HTTP+SSE stream, {@code .../sse}. */
  public URI sseUrl() {
    return baseUrl().resolve("sse");
  }

  /** {@code http://127.0.0.1:<port>} without a path, as the MCP SDK's HTTP builders want it. */
  public String origin() {
    String s = baseUrl().toString();
    return s.substring(0, s.length() - 1);
  }

  public Path vault() {
    return vault;
  }

  public Path index() {
    return index;
  }

  public int pid() {
    return (int) process.pid();
  }

  /** The server's stdin: write newline-delimited JSON-RPC here (or use {@link #stdio()}). */
  public OutputStream stdin() {
    return process.getOutputStream();
  }

  /** The server's stdout: protocol messages only, one per line. */
  public InputStream stdout() {
    return process.getInputStream();
  }

  /** A small JSON-RPC client over this process's stdin and stdout, created on first use. */
  public synchronized StdioClient stdio() {
    if (stdio == null) {
      stdio = new StdioClient(stdin(), stdout());
    }
    return stdio;
  }

  /** Everything the server wrote to stderr so far. */
  public String stderr() {
    try {
      return Files.readString(stderrFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to end on its own (after closing stdin, say); returns its status. */
  public int waitForExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "server still running after " + timeout + ":\n" + stderr() + "\nits threads:\n" + threadDump());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The server's threads as {@code jcmd Thread.print} sees them, so that a server that does not stop
   * says where it is (one that ignored SIGINT, inherited from a test run started in the background,
   * showed it by having no SIGINT handler thread).
   */
  private String threadDump() {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      // Into a file, not a pipe: a jcmd that does not answer must not hold the test up.
      Path out = Files.createTempFile("server-threads", ".txt");
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
          .redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      String dump = Files.readString(out, StandardCharsets.UTF_8);
      Files.deleteIfExists(out);
      return dump;
    } catch (IOException e) {
      return "(no thread dump: " + e + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(no thread dump: interrupted)";
    }
  }

  /** SIGTERM, then waits (up to 30 s) and returns the exit status. */
  public int stop() {
    if (process.isAlive()) {
      process.destroy();
    }
    return waitForExit(Duration.ofSeconds(30));
  }

  /** SIGKILL: for crash tests. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    if (stdio != null) {
      stdio.closeQuietly();
    }
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          kill();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        kill();
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
