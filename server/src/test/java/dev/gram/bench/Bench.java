package dev.gram.bench;

import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The benchmark suite: how fast the server is, measured against the machine's own limits in the
 * same run. It prints one table and writes {@code target/bench/results.json}; it never fails a
 * build. Run it with
 *
 * <pre>mvn -B -Pbench -DskipTests package exec:exec</pre>
 *
 * Sections ({@code -Dbench.only=floor,writes,reads,recall,push,start}, all by default):
 *
 * <ol>
 *   <li><b>floor</b>: the durable replace of the disk under the vault (4 KiB, fsync, rename, fsync
 *       the folder), 1 and 8 threads;
 *   <li><b>writes</b>: gram_patch over Streamable HTTP — one document with one writer, 64
 *       documents with 64 writers, one document with 16 writers racing;
 *   <li><b>reads</b>: gram_get and gram_context over HTTP with 1, 16, 64 clients, and over stdio;
 *   <li><b>recall</b>: per mode on 10,000 and 100,000 records, index build rate, and the time from
 *       a write's receipt to another client's recall finding it;
 *   <li><b>push</b>: receipt → notification
 *       over stdio and HTTP, and 1,000 listeners on one document at 100 writes/s ({@link
 *       PushBench});
 *   <li><b>start</b>: process start to the first answered tools/list, on an empty vault and on a
 *       10,000-document vault; resident memory.
 *   <li><b>sidecar</b>: the server started and used at once over stdio ({@link SidecarBench}):
 *       keyword recall right after ingesting 10,000 records and at rest, writes while vectors
 *       are computed against {@code --no-semantic}, the first 300 calls after start;
 *   <li><b>peer</b>: the same ingest and queries against the MCP reference memory server, both
 *       driven by the official TypeScript SDK ({@code server/src/test/peer/peer-compare.sh});
 *       skipped with one line where node or npm is missing.
 * </ol>
 *
 * Options: {@code bench.seconds} (per measured case, default 5), {@code bench.dir} (where vaults
 * go, default a temporary folder on the same disk as the project), {@code bench.records} (recall
 * sizes, default {@code 10000,100000}), {@code bench.startDocs} (default 10000).
 */
public final class Bench {
  private static final Map<String, Object> RESULTS = new LinkedHashMap<>();
  private static final List<String> TABLE = new ArrayList<>();
  private static double floorMedianMs = Double.NaN;
  private static double floorP99Ms = Double.NaN;
  private static double floorRate8 = Double.NaN;

  private Bench() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("bench.seconds", 5);
    List<String> only = Arrays.asList(System.getProperty("bench.only", "floor,writes,history,recovery,reads,recall,push,start,sidecar,peer").split(","));
    Path root = Path.of(System.getProperty("bench.dir", "target/bench"));
    Files.createDirectories(root);
    Path dir = Files.createTempDirectory(root.toAbsolutePath(), "run-");
    RESULTS.put("machine", machine());
    RESULTS.put("started", Instant.now().toString());
    Duration d = Duration.ofSeconds(seconds);
    row("| row | value | p50 ms | p99 ms | note |");
    row("|---|---|---|---|---|");
    if (only.contains("floor")) {
      floor(dir.resolve("floor"), d);
    }
    if (only.contains("writes")) {
      writes(dir.resolve("writes"), d);
    }
    if (only.contains("history")) {
      history(dir.resolve("history"), Integer.getInteger("bench.historyWrites", 10_000));
    }
    if (only.contains("recovery")) {
      recovery(dir.resolve("recovery"), Integer.getInteger("bench.historyWrites", 10_000));
    }
    if (only.contains("reads")) {
      reads(dir.resolve("reads"), d);
    }
    if (only.contains("recall")) {
      for (String n : System.getProperty("bench.records", "10000,100000").split(",")) {
        recall(dir.resolve("recall-" + n.trim()), Integer.parseInt(n.trim()), d);
      }
    }
    if (only.contains("push")) {
      PushBench.run(dir.resolve("push"), d);
    }
    if (only.contains("start")) {
      start(dir.resolve("start"), Integer.getInteger("bench.startDocs", 10_000));
    }
    if (only.contains("sidecar")) {
      SidecarBench.run(dir.resolve("sidecar"));
    }
    if (only.contains("peer")) {
      SidecarBench.peer(dir.resolve("peer"));
    }
    Path out = root.resolve("results.json");
    Files.writeString(out, new JsonObject(RESULTS).encodePrettily());
    System.err.println();
    TABLE.forEach(System.err::println);
    System.err.println();
    System.err.println("results: " + out.toAbsolutePath());
    deleteTree(dir);
    System.exit(0);
  }

  // ------------------------------------------------------------------ floor

  /** The durable replace floor: what one commit costs the disk, without any of our work. */
  static void floor(Path dir, Duration d) throws Exception {
    Files.createDirectories(dir);
    byte[] data = new byte[4096];
    new Random(1).nextBytes(data);
    for (int i = 0; i < 50; i++) {
      replace(dir, "warm", data);
    }
    Stats one = replaces(dir, "one", data, 400);
    floorMedianMs = one.p50();
    floorP99Ms = one.p99();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong count = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int id = t;
      Thread th = new Thread(() -> {
        try {
          while (!stop.get()) {
            replace(dir, "t" + id, data);
            count.incrementAndGet();
          }
        } catch (IOException e) {
          throw new RuntimeException(e);
        }
      });
      threads.add(th);
      th.start();
    }
    long t0 = System.nanoTime();
    Thread.sleep(d.toMillis());
    stop.set(true);
    for (Thread th : threads) {
      th.join();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    floorRate8 = count.get() / secs;
    put("floor", Map.of("medianMs", one.p50(), "p99Ms", one.p99(), "rate1", 1000.0 / one.p50(), "rate8", floorRate8));
    row(String.format(Locale.ROOT, "| floor: durable 4 KiB replace, 1 thread | %.0f/s | %s | %s | tmp+fsync+rename+fsync dir |",
        1000.0 / one.p50(), Stats.ms(one.p50()), Stats.ms(one.p99())));
    row(String.format(Locale.ROOT, "| floor: durable 4 KiB replace, 8 threads | %.0f/s | | | one folder |", floorRate8));
  }

  /** The p99 of the last 4 KiB floor measured in this run. */
  static double floorP99() {
    return floorP99Ms;
  }

  /** {@code n} durable replaces of one file, one after another, timed. */
  static Stats replaces(Path dir, String name, byte[] data, int n) throws IOException {
    long[] lat = new long[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      replace(dir, name, data);
      lat[i] = System.nanoTime() - t0;
    }
    return new Stats("replace " + name, n, Arrays.stream(lat).sum() / 1e9, lat, 0, 0);
  }

  static void replace(Path dir, String name, byte[] data) throws IOException {
    Path tmp = dir.resolve("." + name + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(ByteBuffer.wrap(data));
      ch.force(true);
    }
    Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
      folder.force(true);
    }
  }

  // ------------------------------------------------------------------ writes

  static void writes(Path dir, Duration d) throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      McpHttp http = new McpHttp(vertx, server.mcpUrl(), 80);
      List<JsonObject> docs = new ArrayList<>();
      for (int i = 0; i < 65; i++) {
        docs.add(await(http.ok("gram_create", new JsonObject().put("path", "bench/doc-" + i + ".gram")
            .put("base_revision", (Object) null).put("title", "Bench " + i).put("content", "# Bench\n\nA document for writes."))).getJsonObject("doc"));
      }
      // One document, one writer.
      // closedLoop warms up first; the CPU counters are read around the measured part only.
      long[] cpu0 = new long[1];
      double[] actor0 = new double[2];
      Stats one = closedLoop(vertx, "1 doc, 1 writer", 1, d, c -> writer(http, docs.get(64), "solo"), () -> {
        cpu0[0] = cpuMicros(server.pid());
        actor0[0] = metric(server, "gram_store_write_cpu_seconds");
        actor0[1] = metric(server, "gram_store_writes");
      });
      double cpuOne = (cpuMicros(server.pid()) - cpu0[0]) / 1000.0 / Math.max(1, one.operations());
      double actorOne = (metric(server, "gram_store_write_cpu_seconds") - actor0[0]) * 1000
          / Math.max(1, metric(server, "gram_store_writes") - actor0[1]);
      put("writes.oneWriter", Map.of("perSecond", one.perSecond(), "p50Ms", one.p50(), "p99Ms", one.p99(),
          "ratioToFloorMedian", one.p50() / floorMedianMs, "errors", one.errors()));
      row(String.format(Locale.ROOT, "| gram_patch, 1 doc, 1 writer | %.0f/s | %s | %s | p50 = %.2f× floor median, p99 = %.2f× floor p99; CPU per write: %.3f ms write actor, %.3f ms whole server |",
          one.perSecond(), Stats.ms(one.p50()), Stats.ms(one.p99()), one.p50() / floorMedianMs, one.p99() / floorP99Ms, actorOne, cpuOne));
      put("writes.oneWriter.cpuMsPerWrite", Map.of("writeActor", actorOne, "wholeServer", cpuOne));
      // The floor again at the size the document has grown to: a commit rewrites the whole file.
      long size = Files.size(server.vault().resolve(docs.get(64).getString("path")));
      byte[] big = new byte[(int) size];
      new Random(2).nextBytes(big);
      Stats sized = replaces(dir, "sized", big, 200);
      put("writes.floorAtDocumentSize", Map.of("bytes", size, "medianMs", sized.p50(), "p99Ms", sized.p99(),
          "ratioOfOneWriterP50", one.p50() / sized.p50()));
      row(String.format(Locale.ROOT, "| floor: durable replace of %d KiB (that document's size at the end) | %.0f/s | %s | %s | 1 writer p50 = %.2f× this |",
          size / 1024, 1000.0 / sized.p50(), Stats.ms(sized.p50()), Stats.ms(sized.p99()), one.p50() / sized.p50()));
      // 64 documents, one writer each.
      long[] cpu1 = new long[1];
      double[] actor1 = new double[2];
      Stats many = closedLoop(vertx, "64 docs, 64 writers", 64, d, c -> writer(http, docs.get(c), "w" + c), () -> {
        cpu1[0] = cpuMicros(server.pid());
        actor1[0] = metric(server, "gram_store_write_cpu_seconds");
        actor1[1] = metric(server, "gram_store_writes");
      });
      double cpuMany = (cpuMicros(server.pid()) - cpu1[0]) / 1000.0 / Math.max(1, many.operations());
      double actorMany = (metric(server, "gram_store_write_cpu_seconds") - actor1[0]) * 1000
          / Math.max(1, metric(server, "gram_store_writes") - actor1[1]);
      put("writes.manyDocuments.cpuMsPerWrite", Map.of("writeActor", actorMany, "wholeServer", cpuMany));
      put("writes.manyDocuments", Map.of("perSecond", many.perSecond(), "p50Ms", many.p50(), "p99Ms", many.p99(),
          "ratioToFloor8", many.perSecond() / floorRate8, "errors", many.errors()));
      row(String.format(Locale.ROOT, "| gram_patch, 64 docs, 64 writers | %.0f rev/s | %s | %s | %.2f× floor 8-thread rate; CPU per write: %.3f ms write actor, %.3f ms whole server |",
          many.perSecond(), Stats.ms(many.p50()), Stats.ms(many.p99()), many.perSecond() / floorRate8, actorMany, cpuMany));
      // One document, 16 writers racing from what they last saw.
      JsonObject race = await(http.ok("gram_create", new JsonObject().put("path", "bench/race.gram")
          .put("base_revision", (Object) null).put("title", "Race").put("content", ""))).getJsonObject("doc");
      Stats racing = closedLoop(vertx, "1 doc, 16 racing", 16, d, c -> racer(http, race.copy(), "r" + c));
      double conflictsPerCommit = racing.operations() == 0 ? Double.NaN : (double) racing.extra() / racing.operations();
      put("writes.racing", Map.of("committedPerSecond", racing.perSecond(), "conflictsPerCommit", conflictsPerCommit,
          "p50Ms", racing.p50(), "p99Ms", racing.p99(), "errors", racing.errors()));
      row(String.format(Locale.ROOT, "| gram_patch, 1 doc, 16 writers racing | %.0f commits/s | %s | %s | %.2f conflicts per commit |",
          racing.perSecond(), Stats.ms(racing.p50()), Stats.ms(racing.p99()), conflictsPerCommit));
      server.stop();
    } finally {
      vertx.close();
    }
  }

  /** Each call adds one small record against the revision the last answer gave. */
  private static Supplier<Future<Boolean>> writer(McpHttp http, JsonObject doc, String who) {
    JsonObject known = doc.copy();
    AtomicLong n = new AtomicLong();
    return () -> {
      long i = n.incrementAndGet();
      JsonObject args = patch(known, who + "-" + i, who + "-" + i);
      return http.ok("gram_patch", args).map(r -> {
        known.mergeIn(r.getJsonObject("doc"));
        return true;
      });
    };
  }

  /** Like a writer, but on STALE_REVISION it takes the current rev and hash from the error. */
  private static Supplier<Future<Boolean>> racer(McpHttp http, JsonObject doc, String who) {
    JsonObject known = doc.copy();
    AtomicLong n = new AtomicLong();
    return () -> {
      long i = n.incrementAndGet();
      return http.call("gram_patch", patch(known, who + "-" + i, who + "-" + i)).map(r -> {
        JsonObject sc = r.getJsonObject("structuredContent");
        if (Boolean.TRUE.equals(r.getBoolean("isError"))) {
          JsonObject e = sc.getJsonObject("error");
          if (!"STALE_REVISION".equals(e.getString("code"))) {
            throw new IllegalStateException(e.encode());
          }
          known.put("rev", e.getJsonObject("details").getInteger("rev")).put("hash", e.getJsonObject("details").getString("hash"));
          return false;
        }
        known.mergeIn(sc.getJsonObject("doc"));
        return true;
      });
    };
  }

  static JsonObject patch(JsonObject known, String requestId, String recordId) {
    return new JsonObject()
        .put("path", known.getString("path"))
        .put("base_revision", known.getInteger("rev"))
        .put("expected_hash", known.getString("hash"))
        .put("request_id", requestId)
        .put("operations", new JsonArray().add(new JsonObject().put("op", "add").put("record",
            new JsonObject().put("type", "event").put("id", recordId)
                .put("fields", new JsonObject().put("t", new JsonArray().add("Benchmark event " + recordId))
                    .put("at", new JsonArray().add("2026-10-12"))))));
  }

  // ------------------------------------------------------------------ history and recovery

  /**
   * One writer, one document, {@code n} sequential commits: does the history make the next write
   * dearer? Two runs: {@code set} commits that keep the state's size (only the history grows), and
   * commits that each add a record (the state grows with it). p50 of writes 100–300 against p50 of
   * the last 200.
   */
  static void history(Path dir, int n) throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      McpHttp http = new McpHttp(vertx, server.mcpUrl(), 80);
      // Warm the JIT on another document first: the early writes must not pay for compilation.
      JsonObject warm = await(http.ok("gram_create", new JsonObject().put("path", "bench/warm.gram")
          .put("base_revision", (Object) null).put("title", "Warm").put("content", ""))).getJsonObject("doc");
      for (int i = 0; i < 2_000; i++) {
        warm.mergeIn(await(http.ok("gram_patch", setOwner(warm, "w-" + i, "value " + i))).getJsonObject("doc"));
      }
      for (boolean grow : new boolean[] {false, true}) {
        String path = "bench/" + (grow ? "growing" : "steady") + ".gram";
        JsonObject known = await(http.ok("gram_create", new JsonObject().put("path", path)
            .put("base_revision", (Object) null).put("title", "History").put("content", "# History"))).getJsonObject("doc");
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
          JsonObject args = grow ? patch(known, "g-" + i, "g-" + i) : setOwner(known, "s-" + i, "value " + i);
          long t0 = System.nanoTime();
          JsonObject r = await(http.ok("gram_patch", args));
          ms[i] = (System.nanoTime() - t0) / 1e6;
          known.mergeIn(r.getJsonObject("doc"));
        }
        double early = median(ms, 100, 300);
        double late = median(ms, n - 200, n);
        String key = grow ? "history.growingState" : "history.steadyState";
        put(key, Map.of("writes", n, "p50Writes100to300Ms", early, "p50Last200Ms", late, "ratio", late / early));
        row(String.format(Locale.ROOT, "| gram_patch, 1 doc, %s: writes %d–%d vs 100–300 | %.2f× | %s | | p50 %s then %s |",
            grow ? "each adds a record" : "each sets a field", n - 200, n, late / early, Stats.ms(late), Stats.ms(early), Stats.ms(late)));
      }
      server.stop();
    } finally {
      vertx.close();
    }
  }

  /**
   * A server that never checkpoints (a lag of an hour) takes {@code n} commits to one document,
   * is killed with SIGKILL, and is started again: how long until it answers tools/list, and until
   * it answers a read of that document, which waits for its {@code n} revisions to be replayed.
   */
  static void recovery(Path dir, int n) throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    String path = "bench/replayed.gram";
    try {
      ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio", "--checkpoint-lag-ms", "3600000");
      McpHttp http = new McpHttp(vertx, server.mcpUrl(), 80);
      JsonObject known = await(http.ok("gram_create", new JsonObject().put("path", path)
          .put("base_revision", (Object) null).put("title", "Replayed").put("content", ""))).getJsonObject("doc");
      for (int i = 0; i < n; i++) {
        known.mergeIn(await(http.ok("gram_patch", setOwner(known, "r-" + i, "value " + i))).getJsonObject("doc"));
      }
      server.kill();
      server.close();
    } finally {
      vertx.close();
    }
    List<String> cmd = ServerProcess.command(dir.resolve("vault"), dir.resolve("index"), "--no-http", "--no-welcome", "--no-semantic");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    OutputStream in = p.getOutputStream();
    JsonObject init = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize").put("params",
        new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "bench").put("version", "1")));
    JsonObject get = new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/call").put("params",
        new JsonObject().put("name", "gram_list").put("arguments", new JsonObject().put("path", path)));
    in.write((init.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    in.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(StandardCharsets.UTF_8));
    in.write("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n".getBytes(StandardCharsets.UTF_8));
    in.write((get.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    double listMs = Double.NaN;
    double readMs = Double.NaN;
    String line;
    String answer = null;
    while ((line = out.readLine()) != null) {
      if (line.contains("\"id\":2")) {
        listMs = (System.nanoTime() - t0) / 1e6;
      } else if (line.contains("\"id\":3")) {
        readMs = (System.nanoTime() - t0) / 1e6;
        answer = line;
        break;
      }
    }
    in.close();
    p.waitFor(60, TimeUnit.SECONDS);
    p.destroyForcibly();
    boolean complete = answer != null && answer.contains("\"rev\":" + n);
    if (!complete) {
      System.err.println("recovery: the read answered " + answer);
    }
    put("recovery", Map.of("revisionsInLog", n, "toolsListMs", listMs, "firstReadMs", readMs, "readSawEveryRevision", complete));
    row(String.format(Locale.ROOT, "| restart after SIGKILL with %d revisions only in the log | %.0f ms | | | to tools/list; %.0f ms to a read of that document (rev %d: %s) |",
        n, listMs, readMs, n, complete ? "all replayed" : "NOT all replayed"));
  }

  static JsonObject setOwner(JsonObject known, String requestId, String value) {
    return new JsonObject()
        .put("path", known.getString("path"))
        .put("base_revision", known.getInteger("rev"))
        .put("expected_hash", known.getString("hash"))
        .put("request_id", requestId)
        .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "doc")
            .put("key", "status").put("value", value)));
  }

  static double median(double[] values, int from, int to) {
    double[] part = Arrays.copyOfRange(values, from, to);
    Arrays.sort(part);
    return part[part.length / 2];
  }

  /** A value from the server's /metrics (Prometheus text), or NaN. */
  static double metric(ServerProcess server, String name) {
    try {
      java.net.http.HttpResponse<String> r = POLLER.send(java.net.http.HttpRequest.newBuilder(
          server.baseUrl().resolve("/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      for (String l : r.body().split("\n")) {
        if (l.startsWith(name + " ")) {
          return Double.parseDouble(l.substring(name.length() + 1).trim());
        }
      }
    } catch (Exception e) {
      return Double.NaN;
    }
    return Double.NaN;
  }

  /** The process's user + system CPU time so far, from /proc (Linux), in microseconds. */
  static long cpuMicros(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
      return ticks * 10_000; // USER_HZ is 100 on Linux
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  // ------------------------------------------------------------------ reads

  static void reads(Path dir, Duration d) throws Exception {
    Path vaultDir = dir.resolve("vault");
    VaultGenerator.Result generated = generate(vaultDir, new VaultGenerator.Spec(7).projects(4).documentsPerProject(5).recordsPerDocument(50));
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome")) {
      McpHttp http = new McpHttp(vertx, server.mcpUrl(), 80);
      Random random = new Random(3);
      IntFunction<Supplier<Future<Boolean>>> get = c -> () -> {
        VaultGenerator.Doc doc = generated.documents().get(random.nextInt(generated.documents().size()));
        String id = doc.recordIds().get(random.nextInt(doc.recordIds().size()));
        return http.ok("gram_get", new JsonObject().put("path", doc.path()).put("entity", id)).map(r -> true);
      };
      IntFunction<Supplier<Future<Boolean>>> context = c -> () -> {
        JsonArray ids = new JsonArray();
        for (int k = 0; k < 5; k++) {
          VaultGenerator.Doc doc = generated.documents().get(random.nextInt(generated.documents().size()));
          ids.add(new JsonObject().put("path", doc.path()).put("entity", doc.recordIds().get(random.nextInt(doc.recordIds().size()))));
        }
        return http.ok("gram_context", new JsonObject().put("ids", ids)).map(r -> true);
      };
      for (String tool : List.of("gram_get", "gram_context")) {
        for (int clients : new int[] {1, 16, 64}) {
          Stats s = closedLoop(vertx, tool + " " + clients, clients, d, tool.equals("gram_get") ? get : context);
          put("reads." + tool + "." + clients, Map.of("perSecond", s.perSecond(), "p50Ms", s.p50(), "p99Ms", s.p99(), "errors", s.errors()));
          row(String.format(Locale.ROOT, "| %s over HTTP, %d client%s | %.0f/s | %s | %s | %s |", tool, clients, clients == 1 ? "" : "s",
              s.perSecond(), Stats.ms(s.p50()), Stats.ms(s.p99()), tool.equals("gram_context") ? "5 entities per call" : "one entity"));
        }
      }
      StdioClient stdio = new StdioClient(server.stdin(), server.stdout(), false);
      stdio.initialize("bench", "2025-11-25");
      for (String tool : List.of("gram_get", "gram_context")) {
        long[] lat = new long[1_000_000];
        int n = 0;
        long end = System.nanoTime() + d.toNanos();
        long t0 = System.nanoTime();
        while (System.nanoTime() < end && n < lat.length) {
          VaultGenerator.Doc doc = generated.documents().get(random.nextInt(generated.documents().size()));
          JsonObject args = tool.equals("gram_get")
              ? new JsonObject().put("path", doc.path()).put("entity", doc.recordIds().get(random.nextInt(doc.recordIds().size())))
              : new JsonObject().put("ids", new JsonArray().add(new JsonObject().put("path", doc.path()).put("entity", doc.recordIds().get(0))));
          long s0 = System.nanoTime();
          stdio.request("tools/call", new JsonObject().put("name", tool).put("arguments", args));
          lat[n++] = System.nanoTime() - s0;
        }
        Stats s = new Stats(tool + " stdio", n, (System.nanoTime() - t0) / 1e9, Arrays.copyOf(lat, n), 0, 0);
        put("reads." + tool + ".stdio", Map.of("perSecond", s.perSecond(), "p50Ms", s.p50(), "p99Ms", s.p99()));
        row(String.format(Locale.ROOT, "| %s over stdio, sequential | %.0f/s | %s | %s | |", tool, s.perSecond(), Stats.ms(s.p50()), Stats.ms(s.p99())));
      }
      server.stop();
    } finally {
      vertx.close();
    }
  }

  // ------------------------------------------------------------------ recall

  static final List<String> QUERIES = List.of("migration decision", "release checklist", "latency budget", "supplier risk",
      "onboarding", "2026-03", "incident review", "capacity plan", "security audit", "roadmap");

  static void recall(Path dir, int records, Duration d) throws Exception {
    Path vaultDir = dir.resolve("vault");
    int perDoc = Math.min(1000, Math.max(10, records / 100));
    int docs = Math.max(1, records / perDoc);
    int projects = Math.max(1, (int) Math.sqrt(docs));
    long g0 = System.nanoTime();
    generate(vaultDir, new VaultGenerator.Spec(11).projects(projects).documentsPerProject(Math.max(1, docs / projects))
        .recordsPerDocument(perDoc).placedPerDocument(Math.min(40, perDoc)).revisionsPerDocument(2));
    double genSecs = (System.nanoTime() - g0) / 1e9;
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    long p0 = System.nanoTime();
    try (ServerProcess server = ServerProcess.start(dir, "--no-welcome")) {
      McpHttp http = new McpHttp(vertx, server.mcpUrl(), 80);
      JsonObject caps;
      while (true) {
        caps = capabilities(server.mcpUrl());
        JsonObject idx = caps.getJsonObject("index");
        if (idx.getInteger("pendingFiles") == 0 && idx.getInteger("indexedFiles") > 0) {
          break;
        }
        Thread.sleep(100);
      }
      double buildSecs = (System.nanoTime() - p0) / 1e9;
      // Keyword recall while the embedder computes vectors in the background (the settled
      // keyword row below is its floor): once the first vectors are in, for the usual time.
      long firstVectors = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < firstVectors) {
        JsonObject idx = capabilities(server.mcpUrl()).getJsonObject("index");
        if (idx.getInteger("embeddedChunks") > 0) {
          break;
        }
        Thread.sleep(100);
      }
      JsonObject during = capabilities(server.mcpUrl());
      if (during.getJsonObject("index").getInteger("embeddedChunks") > 0 && !embeddingDone(server.mcpUrl())) {
        AtomicInteger q = new AtomicInteger();
        Stats s = closedLoop(vertx, "recall keyword while embedding", 1, d, c -> () ->
            http.ok("gram_recall", new JsonObject().put("query", QUERIES.get(q.getAndIncrement() % QUERIES.size())).put("mode", "keyword"))
                .map(r -> true));
        boolean stillEmbedding = !embeddingDone(server.mcpUrl());
        put("recall." + records + ".keywordWhileEmbedding", Map.of("perSecond", s.perSecond(), "p50Ms", s.p50(), "p99Ms", s.p99(),
            "errors", s.errors(), "embeddingThroughout", stillEmbedding));
        row(String.format(Locale.ROOT, "| gram_recall keyword while embedding, %d records | %.0f/s | %s | %s | one client%s |", records,
            s.perSecond(), Stats.ms(s.p50()), Stats.ms(s.p99()), stillEmbedding ? "" : "; embedding ended during the run"));
      }
      // Vectors are computed after the keyword index, in the background: give them a while
      // (bench.embedWaitSeconds), so semantic modes are measured on what an agent would see then.
      long embedDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.getInteger("bench.embedWaitSeconds", 240));
      boolean allEmbedded;
      while (!(allEmbedded = embeddingDone(server.mcpUrl())) && System.nanoTime() < embedDeadline) {
        Thread.sleep(250);
      }
      caps = capabilities(server.mcpUrl());
      int embedded = caps.getJsonObject("index").getInteger("embeddedChunks");
      double embedSecs = (System.nanoTime() - p0) / 1e9 - buildSecs;
      String semantic = caps.getJsonObject("semantic").getString("status");
      put("recall." + records + ".build", Map.of("documents", caps.getJsonObject("index").getInteger("indexedFiles"),
          "seconds", buildSecs, "recordsPerSecond", records / buildSecs, "generateSeconds", genSecs, "semantic", semantic));
      row(String.format(Locale.ROOT, "| index build, %d records (lexical) | %.0f records/s | | | %.1f s from process start; semantic %s |",
          records, records / buildSecs, buildSecs, semantic));
      put("recall." + records + ".embedding", Map.of("embeddedChunks", embedded, "seconds", embedSecs));
      row(String.format(Locale.ROOT, "| embedding, %d records | %d chunks embedded | | | %.0f s after the keyword index%s |",
          records, embedded, embedSecs, allEmbedded ? "" : " (still embedding when measured)"));
      // Then until the server is idle: Lucene still merges segments (at 100,000 records the
      // merges of vector graphs take minutes of CPU), and a recall measured meanwhile measures
      // them. Then 45 s without a tool call: the server gives back heap it no longer needs.
      long settle0 = System.nanoTime();
      boolean settled = awaitIdleCpu(server.pid(), Integer.getInteger("bench.settleSeconds", 600));
      double settleSecs = (System.nanoTime() - settle0) / 1e9;
      Thread.sleep(45_000);
      long rssIdle = rssKb(server.pid());
      put("recall." + records + ".settle", Map.of("seconds", settleSecs, "settled", settled));
      row(String.format(Locale.ROOT, "| server idle after embedding, %d records | %.0f s | | | %s |", records, settleSecs,
          settled ? "process CPU under 5% of a core for 3 s in a row" : "still busy at bench.settleSeconds"));
      for (String mode : List.of("keyword", "exact", "semantic", "hybrid", "auto")) {
        AtomicInteger q = new AtomicInteger();
        Stats s = closedLoop(vertx, "recall " + mode, 1, d, c -> () ->
            http.ok("gram_recall", new JsonObject().put("query", QUERIES.get(q.getAndIncrement() % QUERIES.size())).put("mode", mode))
                .map(r -> true));
        put("recall." + records + "." + mode, Map.of("perSecond", s.perSecond(), "p50Ms", s.p50(), "p99Ms", s.p99(), "errors", s.errors()));
        row(String.format(Locale.ROOT, "| gram_recall %s, %d records | %.0f/s | %s | %s | one client |", mode, records,
            s.perSecond(), Stats.ms(s.p50()), Stats.ms(s.p99())));
      }
      // A write's receipt, then another client's recall: how long until it finds the new record.
      McpHttp other = new McpHttp(vertx, server.mcpUrl(), 4);
      JsonObject doc = await(http.ok("gram_create", new JsonObject().put("path", "fresh/visible.gram")
          .put("base_revision", (Object) null).put("title", "Visibility").put("content", ""))).getJsonObject("doc");
      long[] visible = new long[20];
      int firstTry = 0;
      for (int i = 0; i < visible.length; i++) {
        String token = "zephyrine" + i + "quokka";
        JsonObject answer = await(http.ok("gram_patch", patch(doc, "vis-" + i, "vis-" + i)
            .put("operations", new JsonArray().add(new JsonObject().put("op", "add").put("record", new JsonObject()
                .put("type", "knowledge").put("id", "vis-" + i).put("fields", new JsonObject().put("t", new JsonArray().add(token))))))));
        doc.mergeIn(answer.getJsonObject("doc"));
        long t0 = System.nanoTime();
        int tries = 0;
        while (true) {
          tries++;
          JsonObject r = await(other.ok("gram_recall", new JsonObject().put("query", token).put("mode", "keyword")));
          if (r.getJsonArray("hits").encode().contains("vis-" + i)) {
            break;
          }
        }
        visible[i] = System.nanoTime() - t0;
        if (tries == 1) {
          firstTry++;
        }
      }
      long[] inOrder = visible.clone();
      Stats vis = new Stats("receipt to recall", visible.length, 1, visible, 0, 0);
      put("recall." + records + ".readYourWrites", Map.of("p50Ms", vis.p50(), "p99Ms", vis.p99(), "foundOnFirstQuery", firstTry, "of", visible.length,
          "samplesMs", Arrays.stream(inOrder).mapToObj(n -> Math.round(n / 1e5) / 10.0).toList()));
      row(String.format(Locale.ROOT, "| receipt → another client's recall finds it, %d records | %d/%d on the first query | %s | %s | |",
          records, firstTry, visible.length, Stats.ms(vis.p50()), Stats.ms(vis.p99())));
      long rssAfter = rssKb(server.pid());
      put("memory." + records, Map.of("rssIdleKb", rssIdle, "rssAfterRecallKb", rssAfter));
      row(String.format(Locale.ROOT, "| resident memory, %d records | %d MiB idle, %d MiB after recall | | | |", records, rssIdle / 1024, rssAfter / 1024));
      server.stop();
    } finally {
      vertx.close();
    }
  }

  // ------------------------------------------------------------------ start

  static void start(Path dir, int documents) throws Exception {
    Path empty = dir.resolve("empty");
    Files.createDirectories(empty.resolve("vault"));
    double emptyMs = timeToToolsList(empty);
    put("start.empty", Map.of("ms", emptyMs));
    row(String.format(Locale.ROOT, "| start → first tools/list, empty vault | %.0f ms | | | stdio, JVM start included |", emptyMs));
    Path big = dir.resolve("big");
    int projects = Math.max(1, (int) Math.sqrt(documents));
    generate(big.resolve("vault"), new VaultGenerator.Spec(5).projects(projects).documentsPerProject(documents / projects)
        .recordsPerDocument(3).revisionsPerDocument(1).placedPerDocument(3).crossLinkShare(0).relationShare(0).cycles(false));
    double bigMs = timeToToolsList(big);
    put("start.documents", Map.of("documents", documents, "ms", bigMs));
    row(String.format(Locale.ROOT, "| start → first tools/list, %d documents | %.0f ms | | | the handshake does not wait for loading or indexing |", documents, bigMs));
  }

  /** Starts the jar over stdio and sends initialize and tools/list at once; times the answer. */
  static double timeToToolsList(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("index"));
    List<String> cmd = ServerProcess.command(dir.resolve("vault"), dir.resolve("index"), "--no-http", "--no-welcome");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    OutputStream in = p.getOutputStream();
    JsonObject init = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize").put("params",
        new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "bench").put("version", "1")));
    in.write((init.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    in.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(StandardCharsets.UTF_8));
    in.write("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n".getBytes(StandardCharsets.UTF_8));
    in.flush();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    double ms = Double.NaN;
    while ((line = out.readLine()) != null) {
      if (line.contains("\"id\":2")) {
        ms = (System.nanoTime() - t0) / 1e6;
        break;
      }
    }
    in.close();
    p.waitFor(30, TimeUnit.SECONDS);
    p.destroyForcibly();
    return ms;
  }

  // ------------------------------------------------------------------ plumbing

  /**
   * {@code clients} loops, each starting its next operation when the last one finished, for
   * {@code d}. An operation's future is true when it counts (a commit, an answer) and false for
   * an expected miss (a conflict), which is counted in {@link Stats#extra()}.
   */
  static Stats closedLoop(Vertx vertx, String name, int clients, Duration d, IntFunction<Supplier<Future<Boolean>>> perClient)
      throws InterruptedException {
    return closedLoop(vertx, name, clients, d, perClient, () -> {});
  }

  /** As above; {@code afterWarmup} runs between the warm-up and the measured run. */
  static Stats closedLoop(Vertx vertx, String name, int clients, Duration d,
      IntFunction<Supplier<Future<Boolean>>> perClient, Runnable afterWarmup) throws InterruptedException {
    // Warm the server's JIT on the same work first: the first seconds of a JVM measure the
    // compiler, not the code.
    // The same clients in both phases: a writer keeps the revision it last saw.
    List<Supplier<Future<Boolean>>> ops = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      ops.add(perClient.apply(c));
    }
    run(vertx, name, ops, Duration.ofSeconds(Integer.getInteger("bench.warmup", 3)));
    afterWarmup.run();
    return run(vertx, name, ops, d);
  }

  private static Stats run(Vertx vertx, String name, List<Supplier<Future<Boolean>>> ops, Duration d)
      throws InterruptedException {
    int clients = ops.size();
    AtomicBoolean stop = new AtomicBoolean();
    long[] lat = new long[4_000_000];
    AtomicInteger n = new AtomicInteger();
    AtomicLong counted = new AtomicLong();
    AtomicLong missed = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(clients);
    long start = System.nanoTime();
    for (Supplier<Future<Boolean>> op : ops) {
      vertx.runOnContext(v -> loop(op, stop, lat, n, counted, missed, errors, done));
    }
    Thread.sleep(d.toMillis());
    stop.set(true);
    done.await(60, TimeUnit.SECONDS);
    double secs = (System.nanoTime() - start) / 1e9;
    int total = Math.min(n.get(), lat.length);
    return new Stats(name, counted.get(), secs, Arrays.copyOf(lat, total), errors.get(), missed.get());
  }

  private static void loop(Supplier<Future<Boolean>> op, AtomicBoolean stop, long[] lat, AtomicInteger n,
      AtomicLong counted, AtomicLong missed, AtomicLong errors, CountDownLatch done) {
    if (stop.get()) {
      done.countDown();
      return;
    }
    long t0 = System.nanoTime();
    Future<Boolean> f;
    try {
      f = op.get();
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onComplete(ar -> {
      int i = n.getAndIncrement();
      if (i < lat.length) {
        lat[i] = System.nanoTime() - t0;
      }
      if (ar.failed()) {
        if (errors.incrementAndGet() <= 3) {
          System.err.println("bench: " + ar.cause().getMessage());
        }
      } else if (ar.result()) {
        counted.incrementAndGet();
      } else {
        missed.incrementAndGet();
      }
      loop(op, stop, lat, n, counted, missed, errors, done);
    });
  }

  static VaultGenerator.Result generate(Path vaultDir, VaultGenerator.Spec spec) throws Exception {
    Files.createDirectories(vaultDir);
    Vault vault = new Vault(new PathResolver(vaultDir, List.of()), new PatchOps(), Clock.systemUTC(), 8);
    vault.start().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    VaultGenerator.Result r = VaultGenerator.generate(vault, spec);
    vault.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    return r;
  }

  private static final HttpClient POLLER = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /**
   * gram_capabilities over the JDK's client, for the polls that wait for the index. They are not
   * measured, and must not stall: in long recall runs the Vert.x client's connection pool now and
   * then left one request waiting for a connection that it never opened (no socket to the server,
   * which had answered every call it received), and neither its connect nor its idle timeout
   * fired.
   */
  static JsonObject capabilities(URI mcp) throws Exception {
    String body = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject())
            .put("_meta", StdioClient.modernMeta("bench"))).encode();
    HttpRequest req = HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "gram_capabilities")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<String> resp = POLLER.send(req, HttpResponse.BodyHandlers.ofString());
    return new JsonObject(resp.body()).getJsonObject("result").getJsonObject("structuredContent");
  }

  /** Waits for a future whose failure only matters to the log (closing clients). */
  static void await0(Future<?> f) {
    try {
      f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("ignored: " + e);
    }
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  /** True when no chunk waits for its vector (the server's /metrics), or semantic search is off. */
  static boolean embeddingDone(URI mcp) throws Exception {
    JsonObject semantic = capabilities(mcp).getJsonObject("semantic");
    if (!"available".equals(semantic.getString("status")) && !semantic.getString("reason", "").startsWith("EMBEDDING_LOADING")) {
      return true;
    }
    HttpRequest req = HttpRequest.newBuilder(mcp.resolve("/metrics")).timeout(Duration.ofSeconds(30)).GET().build();
    for (String line : POLLER.send(req, HttpResponse.BodyHandlers.ofString()).body().split("\n")) {
      if (line.startsWith("gram_index_unembedded_chunks ")) {
        return Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim()) == 0;
      }
    }
    return false;
  }

  /**
   * Waits until process {@code pid} uses under 5% of one core (its user and system time from
   * /proc) for three one-second windows in a row; false when {@code maxSeconds} pass first.
   */
  static boolean awaitIdleCpu(long pid, int maxSeconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    int quiet = 0;
    long last = cpuTicks(pid);
    while (System.nanoTime() < end) {
      Thread.sleep(1000);
      long now = cpuTicks(pid);
      // Clock ticks are 1/100 s: 5 ticks in one second is 5% of a core.
      quiet = now - last < 5 ? quiet + 1 : 0;
      last = now;
      if (quiet >= 3) {
        return true;
      }
    }
    return false;
  }

  /** User plus system time of {@code pid}, in clock ticks. */
  static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  static long rssKb(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }

  static Map<String, Object> machine() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          m.put("cpu", l.substring(l.indexOf(':') + 1).strip());
          break;
        }
      }
      m.put("loadAverage", Files.readString(Path.of("/proc/loadavg")).strip());
    } catch (IOException ignored) {
      // not Linux: leave it out
    }
    return m;
  }

  static void put(String key, Object value) {
    RESULTS.put(key, value);
  }

  static void row(String line) {
    TABLE.add(line);
    System.err.println(line);
  }

  static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

}
