package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the first minute of a sidecar costs, and what of it is the JIT: the first 300 trivial
 * calls ({@code gram_capabilities}, one at a time over stdio, right after {@code initialize} and
 * {@code tools/list}) under several launches, started in turn (A B C … A B C …) so that a busy
 * machine weighs on all of them alike. Not part of the default bench run:
 *
 * <pre>
 * mvn -B -Pbench -DskipTests package exec:exec -Dbench.main=dev.gram.bench.WarmStartBench
 * # -Dbench.warmRounds=5 -Dbench.warmJava=&lt;another java&gt; -Dbench.warmLaunches="&lt;JVM options&gt;;…"
 * </pre>
 *
 * Launches, on a copy of the jar with an archive trained beside it as the build trains one: the
 * README's command (which relaunches itself with that archive), the same without the archive
 * ({@code GRAM_MCP_CDS=off}), without semantic search (no model to load: what is left is the JVM
 * and the JIT), C1 only ({@code -XX:TieredStopAtLevel=1}), and any given in {@code
 * bench.warmLaunches} (JVM options, launches separated by {@code ;}).
 */
public final class WarmStartBench {
  private WarmStartBench() {}

  record Launch(String name, List<String> jvm, List<String> flags, Map<String, String> env) {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("bench.warmRounds", 5);
    Path base = Files.createDirectories(Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath());
    Path root = Files.createTempDirectory(base, "warm-");
    // A copy of the jar with an archive trained as the build trains it, beside it.
    Path jar = root.resolve("gram-mcp.jar");
    Files.copy(ServerProcess.jar(), jar);
    train(jar);
    Map<String, String> off = Map.of("GRAM_MCP_CDS", "off");
    List<Launch> launches = new ArrayList<>();
    launches.add(new Launch("java -jar, no archive (GRAM_MCP_CDS=off)", List.of(), List.of(), off));
    launches.add(new Launch("java -jar (README): relaunched with the trained archive", List.of(), List.of(), Map.of()));
    launches.add(new Launch("no archive, --no-semantic", List.of(), List.of("--no-semantic"), off));
    launches.add(new Launch("no archive, -XX:TieredStopAtLevel=1", List.of("-XX:TieredStopAtLevel=1"), List.of(), off));
    for (String extra : System.getProperty("bench.warmLaunches", "").split(";")) {
      if (!extra.isBlank()) {
        launches.add(new Launch(extra.strip(), Arrays.asList(extra.strip().split("\\s+")), List.of(), off));
      }
    }
    Map<String, List<double[]>> results = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      for (Launch l : launches) {
        Path dir = root.resolve("run-" + r + "-" + results.size());
        Path vault = dir.resolve("vault");
        Files.createDirectories(vault);
        results.computeIfAbsent(l.name(), k -> new ArrayList<>()).add(firstCalls(jar, l, dir));
        Bench.deleteTree(dir);
      }
    }
    System.err.println();
    System.err.println("| launch | tools/list after start, ms | first 300 calls p50 ms | calls 100–300 p50 ms | p99 ms |");
    System.err.println("|---|---|---|---|---|");
    for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
      List<double[]> runs = e.getValue();
      System.err.println(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", e.getKey(), col(runs, 0, "%.0f"),
          col(runs, 1, "%.3f"), col(runs, 2, "%.3f"), col(runs, 3, "%.2f")));
    }
    Bench.deleteTree(root);
    System.exit(0);
  }

  /** The median over the runs, and the range. */
  private static String col(List<double[]> runs, int i, String fmt) {
    double[] v = runs.stream().mapToDouble(r -> r[i]).sorted().toArray();
    return String.format(Locale.ROOT, fmt + " (" + fmt + "–" + fmt + ")", v[v.length / 2], v[0], v[v.length - 1]);
  }

  /** The build's training run, on this copy of the jar. */
  private static void train(Path jar) throws Exception {
    Path archive = jar.resolveSibling(jar.getFileName() + ".jsa");
    Process p = new ProcessBuilder(ServerProcess.java(), "-XX:ArchiveClassesAtExit=" + archive, "-Xlog:disable",
        "-Xlog:all=error:stderr", "-jar", jar.toString(), "train").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(10, TimeUnit.MINUTES) || !Files.isRegularFile(archive)) {
      throw new IllegalStateException("the training run wrote no archive at " + archive);
    }
  }

  /** {tools/list ms after start, p50 of the first 300, p50 of calls 100–300, p99}. */
  static double[] firstCalls(Path jar, Launch launch, Path dir) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("bench.warmJava", ServerProcess.java()));
    cmd.addAll(launch.jvm());
    cmd.addAll(List.of("-jar", jar.toString(), "--vault", dir.resolve("vault").toString(), "--index",
        dir.resolve("index").toString(), "--port", "0"));
    cmd.addAll(launch.flags());
    long start = System.nanoTime();
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve("stderr.log").toFile());
    pb.environment().putAll(launch.env());
    Process p = pb.start();
    try {
      StdioLine stdio = new StdioLine(p.getOutputStream(), p.getInputStream());
      stdio.initialize("warm-start");
      stdio.request("tools/list", new JsonObject());
      double listed = (System.nanoTime() - start) / 1e6;
      double[] ms = new double[300];
      for (int i = 0; i < ms.length; i++) {
        stdio.tool("gram_capabilities", new JsonObject());
        ms[i] = stdio.lastNanos() / 1e6;
      }
      return new double[] {listed, SidecarBench.median(ms, 0, 300), SidecarBench.median(ms, 100, 300), SidecarBench.p99(ms)};
    } finally {
      p.getOutputStream().close();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }
}
