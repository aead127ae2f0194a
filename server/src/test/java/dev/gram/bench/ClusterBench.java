package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

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
 */
public final class ClusterBench {
  private ClusterBench() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("bench.seconds", 5);
    int writers = Integer.getInteger("bench.clusterWriters", 48);
    Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
    Files.createDirectories(root);
    Path dir = Files.createTempDirectory(root, "cluster-");
    List<String> table = new ArrayList<>();
    table.add("| nodes | writers | commits/s | p50 ms | p99 ms | routed to another owner | CPU |");
    table.add("|---|---|---|---|---|---|---|");
    byte[] data = new byte[4096];
    Stats floor = Bench.replaces(Files.createDirectories(dir.resolve("floor")), "floor", data, 400);
    table.add(String.format(Locale.ROOT, "| floor | 1 thread | %.0f | %s | %s | | durable 4 KiB replace of this disk |",
        1000.0 / floor.p50(), Stats.ms(floor.p50()), Stats.ms(floor.p99())));
    for (int n = 1; n <= 3; n++) {
      table.add(run(dir.resolve("n" + n), n, writers, seconds));
      System.err.println(table.get(table.size() - 1));
    }
    System.err.println();
    table.forEach(System.err::println);
    Bench.deleteTree(dir);
    System.exit(0);
  }

  private static String run(Path dir, int n, int writers, int seconds) throws Exception {
    int[] ports = new int[n];
    for (int i = 0; i < n; i++) {
      try (ServerSocket s = new ServerSocket(0)) {
        ports[i] = s.getLocalPort();
      }
    }
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
      AtomicLong measuring = new AtomicLong(Long.MAX_VALUE);
      long warmEnd = System.nanoTime() + 2_000_000_000L;
      long end = warmEnd + seconds * 1_000_000_000L;
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<?>> fs = new ArrayList<>();
      Thread cpuMark = new Thread(() -> {
        try {
          Thread.sleep(Math.max(0, (warmEnd - System.nanoTime()) / 1_000_000));
          cpuAtStart[0] = cpuTicks(nodes);
        } catch (Exception e) {
          cpuAtStart[0] = -1;
        }
      });
      cpuMark.start();
      for (int w = 0; w < writers; w++) {
        StatelessCalls c = clients.get(w % n);
        String path = "b/doc" + w + ".gram";
        int writer = w;
        fs.add(pool.submit(() -> {
          int k = 0;
          while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            JsonObject got = c.call("gram_get", new JsonObject().put("path", path).put("entity", "c1"));
            JsonObject doc = got.getJsonObject("doc");
            JsonObject r = c.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
                .put("expected_hash", doc.getString("hash")).put("request_id", "w" + writer + "-" + k++)
                .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "c1")
                    .put("key", "v").put("value", Integer.toString(k)))));
            if (r.containsKey("error")) {
              throw new IllegalStateException(r.encode());
            }
            if (t0 >= warmEnd) {
              latencies.add(System.nanoTime() - t0);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      long cpuAtEnd = cpuTicks(nodes);
      cpuMark.join();
      pool.shutdown();
      long[] lat = latencies.stream().mapToLong(Long::longValue).toArray();
      Stats s = new Stats(n + " nodes", lat.length, seconds, lat, 0, 0);
      long routed = 0;
      for (ServerProcess p : nodes) {
        routed += routedOut(p);
      }
      // Server CPU (all nodes, user + system) per commit, from /proc: clock ticks of 10 ms.
      double cpuMsPerCommit = (cpuAtEnd - cpuAtStart[0]) * 10.0 / Math.max(1, lat.length);
      return String.format(Locale.ROOT, "| %d | %d | %.0f | %s | %s | %d | %.2f ms server CPU per commit (all nodes) |",
          n, writers, s.perSecond(), Stats.ms(s.p50()), Stats.ms(s.p99()), routed, cpuMsPerCommit);
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

  private static long routedOut(ServerProcess p) throws Exception {
    var http = java.net.http.HttpClient.newHttpClient();
    var r = http.send(java.net.http.HttpRequest.newBuilder(p.baseUrl().resolve("healthz")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body()).getJsonObject("cluster").getLong("writes_routed_out");
  }
}
