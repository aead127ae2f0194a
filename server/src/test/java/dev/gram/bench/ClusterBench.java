package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import dev.gram.testing.FreePorts;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Write throughput of a cluster of 1, 2 and 3 nodes on this one machine (docs/cluster.md), beside
 * the floor measured in the same run: the durable replace of the disk under the vault.
 *
 * <p>Each node is a server JVM on loopback; {@code bench.clusterWriters} writers (default 48),
 * one document each, spread over the nodes round-robin, each a closed loop of gram_get then
 * gram_patch over Streamable HTTP. On one machine the nodes share its cores and its disk, so this
 * measures what the cluster costs (routing, replication to followers, the head fence), not what
 * more machines would add. Run: {@code mvn -B -Pbench -DskipTests package exec:exec -pl server
 * -Dbench.main=dev.gram.bench.ClusterBench}.
 *
 * <p>Before/after on a noisy machine: {@code -Dbench.jars=before=/a.jar,after=/b.jar} runs each
 * row with every jar in turn, {@code -Dbench.rounds=N} times, the order of the jars alternating
 * from round to round (A B, B A, ...), and prints the median and range of each jar's rows.
 * {@code -Dbench.nodes=3} runs one row only; {@code -Dbench.clusterWarmup=S} writes S seconds
 * (default 2) before measuring, and {@code -Dbench.clusterWarmup=settled} writes until the nodes'
 * JIT compilers are quiet ({@link JitSettle}); {@code -Dbench.threads=true} prints where the
 * nodes' CPU went, by thread. Each row also prints the cluster's own steps as the nodes timed them
 * (p50 of the request-id claim, the head fence, replication; from {@code /metrics}, when the jar
 * has them).
 */
public final class ClusterBench {
  private static final Pattern STEP =
      Pattern.compile("^gram_cluster_step_p50_seconds\\{[^}]*step=\"([a-z_+]+)\"[^}]*\\}\\s+(\\S+)", Pattern.MULTILINE);

  private ClusterBench() {}

  /** One measured row. */
  private record Row(String jar, int nodes, double perSecond, double p50, double p99, long routed, double cpuMs,
      Map<String, Double> steps) {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("bench.seconds", 5);
    int writers = Integer.getInteger("bench.clusterWriters", 48);
    int rounds = Integer.getInteger("bench.rounds", 1);
    int[] nodeCounts = Arrays.stream(System.getProperty("bench.nodes", "1,2,3").split(","))
        .mapToInt(s -> Integer.parseInt(s.strip())).toArray();
    Map<String, String> jars = jars();
    Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
    Files.createDirectories(root);
    Path dir = Files.createTempDirectory(root, "cluster-");
    List<String> table = new ArrayList<>();
    table.add("| jar | nodes | writers | commits/s | p50 ms | p99 ms | routed to another owner | server CPU ms per commit (all nodes) | steps p50 ms |");
    table.add("|---|---|---|---|---|---|---|---|---|");
    byte[] data = new byte[4096];
    Stats floor = Bench.replaces(Files.createDirectories(dir.resolve("floor")), "floor", data, 400);
    table.add(String.format(Locale.ROOT, "| floor | | 1 thread | %.0f | %s | %s | | durable 4 KiB replace of this disk | |",
        1000.0 / floor.p50(), Stats.ms(floor.p50()), Stats.ms(floor.p99())));
    List<Row> rows = new ArrayList<>();
    List<String> labels = new ArrayList<>(jars.keySet());
    int k = 0;
    for (int round = 0; round < rounds; round++) {
      for (int n : nodeCounts) {
        List<String> order = new ArrayList<>(labels);
        if (round % 2 == 1) {
          java.util.Collections.reverse(order);
        }
        for (String label : order) {
          System.setProperty("gram.jar", jars.get(label));
          Row r = run(dir.resolve("r" + k++), label, n, writers, seconds);
          rows.add(r);
          table.add(line(r));
          System.err.println(line(r));
        }
      }
    }
    System.err.println();
    table.forEach(System.err::println);
    if (rounds > 1 || jars.size() > 1) {
      System.err.println();
      System.err.println("| jar | nodes | rows | commits/s median (range) | server CPU ms per commit median (range) | claim p50 | fence p50 | replicate p50 |");
      System.err.println("|---|---|---|---|---|---|---|---|");
      for (int n : nodeCounts) {
        for (String label : labels) {
          List<Row> mine = rows.stream().filter(r -> r.jar().equals(label) && r.nodes() == n).toList();
          System.err.println(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s |", label, n, mine.size(),
              summary(mine.stream().mapToDouble(Row::perSecond).toArray(), "%.0f"),
              summary(mine.stream().mapToDouble(Row::cpuMs).toArray(), "%.2f"),
              stepSummary(mine, "claim"), stepSummary(mine, "fence"), stepSummary(mine, "replicate")));
        }
      }
    }
    Bench.deleteTree(dir);
    System.exit(0);
  }

  /** {@code label=path,...} from {@code bench.jars}, or the one jar of {@code gram.jar}. */
  private static Map<String, String> jars() {
    Map<String, String> jars = new LinkedHashMap<>();
    String spec = System.getProperty("bench.jars", "").strip();
    if (spec.isEmpty()) {
      jars.put("this", ServerProcess.jar().toString());
      return jars;
    }
    for (String part : spec.split(",")) {
      int eq = part.indexOf('=');
      jars.put(part.substring(0, eq).strip(), Path.of(part.substring(eq + 1).strip()).toAbsolutePath().toString());
    }
    return jars;
  }

  private static String line(Row r) {
    StringBuilder steps = new StringBuilder();
    r.steps().forEach((k, v) -> steps.append(steps.length() == 0 ? "" : ", ")
        .append(k).append(' ').append(String.format(Locale.ROOT, "%.2f", v)));
    return String.format(Locale.ROOT, "| %s | %d | | %.0f | %s | %s | %d | %.2f | %s |", r.jar(), r.nodes(), r.perSecond(),
        Stats.ms(r.p50()), Stats.ms(r.p99()), r.routed(), r.cpuMs(), steps);
  }

  private static String summary(double[] v, String format) {
    if (v.length == 0) {
      return "";
    }
    double[] s = v.clone();
    Arrays.sort(s);
    double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return String.format(Locale.ROOT, format + " (" + format + "–" + format + ")", median, s[0], s[s.length - 1]);
  }

  private static String stepSummary(List<Row> rows, String step) {
    double[] v = rows.stream().filter(r -> r.steps().containsKey(step)).mapToDouble(r -> r.steps().get(step)).toArray();
    return v.length == 0 ? "–" : summary(v, "%.2f");
  }

  private static Row run(Path dir, String jar, int n, int writers, int seconds) throws Exception {
    // Long enough for the JIT compilers to settle, or their CPU is counted as the commits'.
    String warmup = System.getProperty("bench.clusterWarmup", "2").strip();
    int[] ports = FreePorts.reserve(n);
    List<ServerProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        List<String> members = new ArrayList<>();
        for (int j = 0; j < n; j++) {
          if (j != i) {
            members.add("127.0.0.1:" + ports[j]);
          }
        }
        List<String> a = new ArrayList<>(List.of("--no-semantic", "--no-welcome", "--no-stdio", "--cluster",
            "--cluster-node", "n" + i, "--cluster-port", String.valueOf(ports[i])));
        if (!members.isEmpty()) {
          a.add("--cluster-members");
          a.add(String.join(",", members));
        }
        nodes.add(ServerProcess.start(dir.resolve("vault"), dir.resolve("index-" + i), dir.resolve("n" + i + ".log"),
            List.of("-Xmx512m"), a.toArray(String[]::new)));
      }
      Thread.sleep(3_000); // partitions settle
      List<StatelessCalls> clients = new ArrayList<>();
      for (ServerProcess p : nodes) {
        clients.add(new StatelessCalls(p.mcpUrl(), "bench"));
      }
      for (int w = 0; w < writers; w++) {
        clients.get(w % n).call("gram_create", new JsonObject().put("path", "b/doc" + w + ".gram")
            .put("base_revision", (Object) null).put("title", "Doc " + w)
            .put("content", new JsonObject().put("records", new JsonArray().add(new JsonObject().put("type", "metric")
                .put("id", "c1").put("fields", new JsonObject().put("t", new JsonArray().add("C"))
                    .put("v", new JsonArray().add("0")))))));
      }
      ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
      long[] cpuAtStart = new long[1];
      Map<String, Long> threadsAtStart = new java.util.concurrent.ConcurrentHashMap<>();
      // Both unknown until the warm-up ends: the writers measure from the one and stop at the other.
      AtomicLong warmEnd = new AtomicLong(Long.MAX_VALUE);
      AtomicLong end = new AtomicLong(Long.MAX_VALUE);
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<?>> fs = new ArrayList<>();
      Thread cpuMark = new Thread(() -> {
        try {
          if (warmup.equals("settled")) {
            JitSettle.await(() -> threadTicks(nodes));
          } else {
            Thread.sleep(Integer.parseInt(warmup) * 1_000L);
          }
          cpuAtStart[0] = cpuTicks(nodes);
          threadsAtStart.putAll(threadTicks(nodes));
        } catch (Exception e) {
          cpuAtStart[0] = -1;
        }
        long now = System.nanoTime();
        end.set(now + seconds * 1_000_000_000L);
        warmEnd.set(now);
      });
      cpuMark.start();
      AtomicLong committed = new AtomicLong();
      for (int w = 0; w < writers; w++) {
        StatelessCalls c = clients.get(w % n);
        String path = "b/doc" + w + ".gram";
        int writer = w;
        fs.add(pool.submit(() -> {
          int i = 0;
          while (System.nanoTime() < end.get()) {
            long t0 = System.nanoTime();
            JsonObject got = c.call("gram_get", new JsonObject().put("path", path).put("entity", "c1"));
            JsonObject doc = got.getJsonObject("doc");
            JsonObject r = c.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
                .put("expected_hash", doc.getString("hash")).put("request_id", "w" + writer + "-" + i++)
                .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "c1")
                    .put("key", "v").put("value", Integer.toString(i)))));
            if (r.containsKey("error")) {
              throw new IllegalStateException(r.encode());
            }
            if (t0 >= warmEnd.get()) {
              latencies.add(System.nanoTime() - t0);
              committed.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      long cpuAtEnd = cpuTicks(nodes);
      Map<String, Long> threadsAtEnd = threadTicks(nodes);
      cpuMark.join();
      // For profiles: the measured window in wall-clock time (JFR events carry it).
      long nowMs = System.currentTimeMillis();
      System.err.printf(Locale.ROOT, "measured window (epoch ms): %d %d%n",
          nowMs - (System.nanoTime() - warmEnd.get()) / 1_000_000, nowMs);
      pool.shutdown();
      long[] lat = latencies.stream().mapToLong(Long::longValue).toArray();
      Stats s = new Stats(n + " nodes", lat.length, seconds, lat, 0, 0);
      long routed = 0;
      Map<String, List<Double>> steps = new TreeMap<>();
      for (ServerProcess p : nodes) {
        routed += routedOut(p);
        stepsOf(p).forEach((k, v) -> steps.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
      }
      Map<String, Double> stepMedians = new TreeMap<>();
      steps.forEach((k, v) -> {
        double[] a = v.stream().mapToDouble(Double::doubleValue).filter(x -> x > 0).sorted().toArray();
        if (a.length > 0) {
          stepMedians.put(k, a[a.length / 2]);
        }
      });
      if (Boolean.getBoolean("bench.threads")) {
        printThreads(jar, n, threadsAtStart, threadsAtEnd, lat.length);
      }
      // Server CPU (all nodes, user + system) per commit, from /proc: clock ticks of 10 ms.
      double cpuMsPerCommit = (cpuAtEnd - cpuAtStart[0]) * 10.0 / Math.max(1, lat.length);
      return new Row(jar, n, s.perSecond(), s.p50(), s.p99(), routed, cpuMsPerCommit, stepMedians);
    } finally {
      for (ServerProcess p : nodes) {
        p.close();
      }
    }
  }

  /** User + system CPU of the server processes, in clock ticks (Linux). */
  private static long cpuTicks(List<ServerProcess> nodes) throws java.io.IOException {
    long t = 0;
    for (ServerProcess p : nodes) {
      String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      t += Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
    return t;
  }

  /**
   * CPU ticks of every thread of the nodes, keyed by node and thread: where the CPU went, JIT
   * compilers and garbage collectors included ({@code -Dbench.threads=true}).
   */
  private static Map<String, Long> threadTicks(List<ServerProcess> nodes) {
    Map<String, Long> out = new TreeMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      Path tasks = Path.of("/proc/" + nodes.get(i).pid() + "/task");
      try (var dirs = Files.newDirectoryStream(tasks)) {
        for (Path t : dirs) {
          try {
            String stat = Files.readString(t.resolve("stat"));
            String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            out.put(i + "/" + t.getFileName() + "/" + name, Long.parseLong(f[11]) + Long.parseLong(f[12]));
          } catch (java.io.IOException | RuntimeException e) {
            // the thread ended meanwhile
          }
        }
      } catch (java.io.IOException e) {
        // the node ended
      }
    }
    return out;
  }

  /** CPU ms per commit by thread group (names without their numbers), all nodes summed. */
  private static void printThreads(String jar, int n, Map<String, Long> start, Map<String, Long> end, long commits) {
    Map<String, Long> byGroup = new TreeMap<>();
    end.forEach((k, v) -> {
      String name = k.substring(k.indexOf('/', k.indexOf('/') + 1) + 1);
      String group = name.replaceAll("\\d+", "N");
      byGroup.merge(group, v - start.getOrDefault(k, 0L), Long::sum);
    });
    StringBuilder sb = new StringBuilder("CPU by thread group, ms per commit (" + jar + ", " + n + " nodes):");
    byGroup.entrySet().stream().filter(e -> e.getValue() > 0)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sb.append(String.format(Locale.ROOT, "%n  %6.3f  %s", e.getValue() * 10.0 / Math.max(1, commits),
            e.getKey())));
    System.err.println(sb);
  }

  private static String get(ServerProcess p, String path) throws Exception {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
        .send(HttpRequest.newBuilder(p.baseUrl().resolve(path)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  private static long routedOut(ServerProcess p) throws Exception {
    return new JsonObject(get(p, "healthz")).getJsonObject("cluster").getLong("writes_routed_out");
  }

  /** The p50 of each of the cluster's own steps on this node, in ms (none when the jar does not time them). */
  private static Map<String, Double> stepsOf(ServerProcess p) throws Exception {
    Map<String, Double> out = new TreeMap<>();
    Matcher m = STEP.matcher(get(p, "metrics"));
    while (m.find()) {
      out.put(m.group(1), Double.parseDouble(m.group(2)) * 1000);
    }
    return out;
  }
}
