package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code sidecar} section: the server as an agent runtime uses it, started and used at once,
 * over stdio, with default flags (semantic search on). The targets, in one run:
 *
 * <ul>
 *   <li><b>recall</b>: 10,000 records ingested with gram_create and gram_patch (100 documents, 50
 *       records a call), then keyword recall at once, while vectors are computed, and again at
 *       rest; how long the vectors took to arrive after the ingest;
 *   <li><b>writes</b>: one writer sets one field of a record 3,000 times right after start (each
 *       write changes one unit's text, which the embedder must embed again), with semantic search
 *       on and with {@code --no-semantic}, two rounds interleaved; the 4 KiB durable-replace
 *       floor in the same run;
 *   <li><b>first calls</b>: the first 300 {@code gram_capabilities} calls after start, on an empty
 *       vault and on the ingested one.
 * </ul>
 *
 * The {@code peer} section ({@link #peer}) runs the same ingest and queries against the MCP
 * reference memory server.
 *
 * <p>Options: {@code bench.sidecar} (parts, default {@code recall,writes,first}), {@code
 * bench.sidecarRecords} (default 10000), {@code bench.sidecarWrites} (default 3000); for the
 * writes part, {@code bench.writeFlags} (more server flags for every run) and {@code
 * bench.writeDump} (a folder that gets each run's write latencies, one per line).
 */
final class SidecarBench {
  static final String[] ADJ = {
    "blue", "quiet", "remote", "legacy", "shared", "nightly", "secure", "fast", "regional", "manual",
    "partial", "broken", "stable", "hidden", "urgent", "mobile", "internal", "public", "weekly", "cold"
  };
  static final String[] NOUN = {
    "migration", "decision", "release", "checklist", "latency", "budget", "supplier", "risk", "onboarding",
    "incident", "review", "capacity", "plan", "security", "audit", "roadmap", "database", "gateway", "invoice",
    "dashboard", "certificate", "cluster", "pipeline", "backup", "queue", "scheduler", "report", "sensor", "cache",
    "token"
  };
  static final String[] VERB = {
    "migrate", "replace", "audit", "monitor", "document", "retire", "upgrade", "test", "review", "rebuild"
  };
  static final String[] TYPES = {"task", "decision", "event", "knowledge", "risk"};

  private SidecarBench() {}

  static void run(Path dir) throws Exception {
    List<String> parts = Arrays.asList(System.getProperty("bench.sidecar", "recall,writes,first").split(","));
    int records = Integer.getInteger("bench.sidecarRecords", 10_000);
    Path ingested = dir.resolve("recall");
    if (parts.contains("recall")) {
      recall(ingested, records);
    }
    if (parts.contains("writes")) {
      writes(dir.resolve("writes"), Integer.getInteger("bench.sidecarWrites", 3_000));
    }
    if (parts.contains("first")) {
      Path empty = dir.resolve("first-empty");
      Files.createDirectories(empty.resolve("vault"));
      firstCalls(empty, "empty vault");
      if (Files.isDirectory(ingested.resolve("vault"))) {
        firstCalls(ingested, records + " records, index built");
      }
    }
  }

  // ------------------------------------------------------------------ recall

  /** Ingest over stdio, keyword recall at once and at rest. */
  static void recall(Path dir, int records) throws Exception {
    try (ServerProcess server = ServerProcess.start(dir)) {
      StdioLine stdio = new StdioLine(server.stdin(), server.stdout());
      stdio.initialize("sidecar-bench");
      stdio.request("tools/list", new JsonObject());
      long t0 = System.nanoTime();
      int perDoc = 100;
      int docs = (records + perDoc - 1) / perDoc;
      int r = 0;
      for (int d = 0; d < docs; d++) {
        String path = "proj" + (d % 10) + "/plan" + d + ".gram";
        JsonObject doc = stdio.tool("gram_create", new JsonObject().put("path", path).put("base_revision", (Object) null)
            .put("title", capital(ADJ[d % ADJ.length]) + " " + NOUN[d % NOUN.length] + " plan " + d)
            .put("content", "# Goals\n\nKeep the " + NOUN[(d * 7) % NOUN.length] + " " + ADJ[(d * 3) % ADJ.length]
                + " and " + VERB[d % VERB.length] + " the " + NOUN[(d * 11) % NOUN.length] + ".")).getJsonObject("doc");
        while (r < Math.min(records, (d + 1) * perDoc)) {
          JsonArray ops = new JsonArray();
          for (int k = 0; k < 50 && r < Math.min(records, (d + 1) * perDoc); k++, r++) {
            ops.add(new JsonObject().put("op", "add").put("record", record(r)));
          }
          doc = stdio.tool("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
              .put("expected_hash", doc.getString("hash")).put("request_id", "ingest-" + r).put("operations", ops))
              .getJsonObject("doc");
        }
      }
      double ingestSecs = (System.nanoTime() - t0) / 1e9;
      long ingestEnd = System.nanoTime();
      double unembeddedAtStart = Bench.metric(server, "gram_index_unembedded_chunks");
      Stats atOnce = keyword(stdio, 1000);
      double unembeddedAtEnd = Bench.metric(server, "gram_index_unembedded_chunks");
      Bench.put("sidecar.ingest", Map.of("records", records, "seconds", ingestSecs));
      Bench.row(String.format(Locale.ROOT, "| sidecar: ingest %d records over stdio (gram_create + gram_patch, 50 a call) | %.0f records/s | | | %.1f s |",
          records, records / ingestSecs, ingestSecs));
      Bench.put("sidecar.keywordAtOnce", Map.of("p50Ms", atOnce.p50(), "p99Ms", atOnce.p99(), "calls", atOnce.operations(),
          "unembeddedBefore", unembeddedAtStart, "unembeddedAfter", unembeddedAtEnd));
      Bench.row(String.format(Locale.ROOT, "| sidecar: gram_recall keyword at once after the ingest, %d records | %.0f/s | %s | %s | stdio, %d calls; chunks without a vector %.0f before, %.0f after |",
          records, atOnce.perSecond(), Stats.ms(atOnce.p50()), Stats.ms(atOnce.p99()), atOnce.operations(),
          unembeddedAtStart, unembeddedAtEnd));
      // Vectors still arrive: until none is missing, then until the process is idle (merges).
      while (!(Bench.metric(server, "gram_index_unembedded_chunks") == 0
          && Bench.metric(server, "gram_index_embedded_chunks") > 0)) {
        Thread.sleep(200);
        if (System.nanoTime() - ingestEnd > TimeUnit.MINUTES.toNanos(20)) {
          break;
        }
      }
      double vectorsSecs = (System.nanoTime() - ingestEnd) / 1e9;
      boolean idle = Bench.awaitIdleCpu(server.pid(), 600);
      double restSecs = (System.nanoTime() - ingestEnd) / 1e9;
      Stats atRest = keyword(stdio, 3000);
      Stats fresh = keywordAskedOnce(stdio, 3000);
      Stats ping = ping(stdio, 3000);
      Bench.put("sidecar.vectors", Map.of("secondsAfterIngest", vectorsSecs, "idleAfterSeconds", restSecs, "idle", idle,
          "embeddedChunks", Bench.metric(server, "gram_index_embedded_chunks")));
      Bench.row(String.format(Locale.ROOT, "| sidecar: every vector computed, %d records | %.1f s after the ingest | | | %.0f chunks; process idle after %.1f s |",
          records, vectorsSecs, Bench.metric(server, "gram_index_embedded_chunks"), restSecs));
      Bench.put("sidecar.keywordAtRest", Map.of("p50Ms", atRest.p50(), "p99Ms", atRest.p99(), "calls", atRest.operations()));
      Bench.row(String.format(Locale.ROOT, "| sidecar: gram_recall keyword at rest, %d records | %.0f/s | %s | %s | stdio; at once / at rest p50 = %.2f× |",
          records, atRest.perSecond(), Stats.ms(atRest.p50()), Stats.ms(atRest.p99()), atOnce.p50() / atRest.p50()));
      Bench.put("sidecar.keywordAtRestAskedOnce", Map.of("p50Ms", fresh.p50(), "p99Ms", fresh.p99(), "calls", fresh.operations()));
      Bench.row(String.format(Locale.ROOT, "| sidecar: gram_recall keyword at rest, each query string asked once, %d records | %.0f/s | %s | %s | stdio; the same ten queries, each with its own mix of letter cases: no answer from a kept ranking |",
          records, fresh.perSecond(), Stats.ms(fresh.p50()), Stats.ms(fresh.p99())));
      Bench.put("sidecar.ping", Map.of("p50Ms", ping.p50(), "p99Ms", ping.p99()));
      Bench.row(String.format(Locale.ROOT, "| sidecar: ping at rest (the pipe's floor) | %.0f/s | %s | %s | |",
          ping.perSecond(), Stats.ms(ping.p50()), Stats.ms(ping.p99())));
      server.stop();
    }
  }

  /** A record the keyword queries find: titles and descriptions from a small vocabulary. */
  static JsonObject record(int r) {
    String type = TYPES[r % TYPES.length];
    int h = (int) ((r * 2654435761L) & 0x7fffffff);
    String title = capital(VERB[h % VERB.length]) + " the " + ADJ[(h / 7) % ADJ.length] + " " + NOUN[(h / 11) % NOUN.length]
        + " " + NOUN[(h / 13) % NOUN.length] + " " + r;
    String desc = "The " + ADJ[(h / 17) % ADJ.length] + " team will " + VERB[(h / 19) % VERB.length] + " the "
        + NOUN[(h / 23) % NOUN.length] + " before the " + NOUN[(h / 29) % NOUN.length] + " is " + ADJ[(h / 31) % ADJ.length] + ".";
    JsonObject fields = new JsonObject().put("t", new JsonArray().add(title)).put("d", new JsonArray().add(desc));
    if (type.equals("event") || type.equals("decision")) {
      fields.put("at", new JsonArray().add(String.format(Locale.ROOT, "2026-%02d-%02d", 1 + h % 12, 1 + (h / 12) % 28)));
    }
    return new JsonObject().put("type", type).put("id", "r" + r).put("fields", fields);
  }

  /** {@code n} keyword recalls, cycling through the bench's ten queries. */
  static Stats keyword(StdioLine stdio, int n) throws IOException {
    long[] lat = new long[n];
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      stdio.tool("gram_recall", new JsonObject().put("query", Bench.QUERIES.get(i % Bench.QUERIES.size())).put("mode", "keyword"));
      lat[i] = stdio.lastNanos();
    }
    return new Stats("keyword", n, (System.nanoTime() - t0) / 1e9, lat, 0, 0);
  }

  /**
   * {@code n} keyword recalls of the bench's ten queries, each query string new to the server: the
   * same words (so the same search) with their letters' case changed as the bits of a count say,
   * so that no recall is answered from a ranking the server kept for a string it was asked before.
   * (Trailing spaces did the same until 2026-12-04, but up to 300 of them made the query's own
   * analysis part of the figure.)
   */
  static Stats keywordAskedOnce(StdioLine stdio, int n) throws IOException {
    long[] lat = new long[n];
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      String query = caseVariant(Bench.QUERIES.get(i % Bench.QUERIES.size()), 1 + i / Bench.QUERIES.size());
      stdio.tool("gram_recall", new JsonObject().put("query", query).put("mode", "keyword"));
      lat[i] = stdio.lastNanos();
    }
    return new Stats("keyword asked once", n, (System.nanoTime() - t0) / 1e9, lat, 0, 0);
  }

  /**
   * {@code text} with the case of its k-th letter flipped where bit k of {@code variant} is set;
   * past what its letters can tell apart (a date has none), as many trailing spaces as are left.
   */
  static String caseVariant(String text, int variant) {
    StringBuilder b = new StringBuilder(text);
    int bit = 0;
    for (int i = 0; i < b.length(); i++) {
      char c = b.charAt(i);
      if (Character.isLetter(c)) {
        if (bit < 30 && ((variant >> bit) & 1) != 0) {
          b.setCharAt(i, Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
        }
        bit++;
      }
    }
    int spaces = bit >= 30 ? 0 : variant >> bit;
    return b.append(" ".repeat(spaces)).toString();
  }

  static Stats ping(StdioLine stdio, int n) throws IOException {
    long[] lat = new long[n];
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      stdio.request("ping", new JsonObject());
      lat[i] = stdio.lastNanos();
    }
    return new Stats("ping", n, (System.nanoTime() - t0) / 1e9, lat, 0, 0);
  }

  // ------------------------------------------------------------------ writes

  /**
   * One writer right after start: 3,000 writes each setting one record's description (one unit's
   * text changes each time). Semantic on and off, two rounds, interleaved.
   */
  static void writes(Path dir, int n) throws Exception {
    Bench.floor(dir.resolve("floor"), java.time.Duration.ofSeconds(2));
    double floorP99 = Bench.floorP99();
    List<double[]> on = new ArrayList<>();
    List<double[]> off = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      on.add(writeRun(dir.resolve("on-" + round), n));
      off.add(writeRun(dir.resolve("off-" + round), n, "--no-semantic"));
    }
    for (int round = 0; round < 2; round++) {
      double[] a = on.get(round);
      double[] b = off.get(round);
      Bench.put("sidecar.writes.round" + round, Map.of("semantic", summary(a, n), "noSemantic", summary(b, n)));
      Bench.row(String.format(Locale.ROOT, "| sidecar: gram_patch set one field, %d writes after start, round %d: semantic / --no-semantic | p50 %.2f× | %s / %s | %s / %s | writes 50–400: %s / %s; 1,000–1,400: %s / %s; last 400: %s / %s; p99 %.1f× the floor's |",
          n, round + 1, median(a, 0, n) / median(b, 0, n), Stats.ms(median(a, 0, n)), Stats.ms(median(b, 0, n)),
          Stats.ms(p99(a)), Stats.ms(p99(b)),
          Stats.ms(median(a, 50, 400)), Stats.ms(median(b, 50, 400)),
          Stats.ms(median(a, 1000, 1400)), Stats.ms(median(b, 1000, 1400)),
          Stats.ms(median(a, n - 400, n)), Stats.ms(median(b, n - 400, n)), p99(a) / floorP99));
      Bench.row(String.format(Locale.ROOT, "| sidecar: writes over 3× the floor's p99 (%s), round %d: semantic / --no-semantic | first 100: %d / %d; 100–500: %d / %d; after 500: %d / %d |",
          Stats.ms(3 * floorP99), round + 1, over(a, 0, 100, 3 * floorP99), over(b, 0, 100, 3 * floorP99),
          over(a, 100, 500, 3 * floorP99), over(b, 100, 500, 3 * floorP99), over(a, 500, n, 3 * floorP99), over(b, 500, n, 3 * floorP99)));
    }
  }

  /** How many of the writes from..to took longer than {@code ms}: says whether the tail is the first minute or all along. */
  private static int over(double[] values, int from, int to, double ms) {
    int count = 0;
    for (int i = Math.max(0, from); i < Math.min(values.length, to); i++) {
      if (values[i] > ms) {
        count++;
      }
    }
    return count;
  }

  private static Map<String, Object> summary(double[] ms, int n) {
    return Map.of("p50Ms", median(ms, 0, n), "p99Ms", p99(ms), "p50Writes50to400", median(ms, 50, 400),
        "p50Writes1000to1400", median(ms, 1000, 1400), "p50Last400", median(ms, n - 400, n));
  }

  private static double[] writeRun(Path dir, int n, String... flags) throws Exception {
    // bench.writeFlags: extra server flags for both runs, to see what a write's tail is made of.
    String extra = System.getProperty("bench.writeFlags", "").strip();
    List<String> all = new ArrayList<>(Arrays.asList(flags));
    if (!extra.isEmpty()) {
      all.addAll(Arrays.asList(extra.split("\\s+")));
    }
    try (ServerProcess server = ServerProcess.start(dir, all.toArray(String[]::new))) {
      StdioLine stdio = new StdioLine(server.stdin(), server.stdout());
      stdio.initialize("sidecar-writes");
      stdio.request("tools/list", new JsonObject());
      JsonArray records = new JsonArray();
      for (int i = 0; i < 50; i++) {
        records.add(record(i));
      }
      JsonObject doc = stdio.tool("gram_create", new JsonObject().put("path", "hot/doc.gram").put("base_revision", (Object) null)
          .put("title", "Hot document").put("content", new JsonObject().put("text", "# Hot\n\nWritten all the time.")
              .put("records", records))).getJsonObject("doc");
      double[] ms = new double[n];
      for (int i = 0; i < n; i++) {
        JsonObject args = new JsonObject().put("path", "hot/doc.gram").put("base_revision", doc.getInteger("rev"))
            .put("expected_hash", doc.getString("hash")).put("request_id", "w-" + i)
            .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "r" + (i % 50))
                .put("key", "d").put("value", "The " + ADJ[i % ADJ.length] + " description number " + i + " of this record.")));
        doc = stdio.tool("gram_patch", args).getJsonObject("doc");
        ms[i] = stdio.lastNanos() / 1e6;
      }
      server.stop();
      String dump = System.getProperty("bench.writeDump");
      if (dump != null) {
        StringBuilder text = new StringBuilder();
        for (double m : ms) {
          text.append(m).append('\n');
        }
        Files.writeString(Path.of(dump, dir.getFileName() + ".txt"), text);
      }
      return ms;
    }
  }

  // ------------------------------------------------------------------ first calls

  /** The first 300 trivial calls after start: gram_capabilities, one at a time. */
  static void firstCalls(Path dir, String what) throws Exception {
    List<String> cmd = ServerProcess.command(dir.resolve("vault"), dir.resolve("index"), "--port", "0");
    Files.createDirectories(dir.resolve("index"));
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      StdioLine stdio = new StdioLine(p.getOutputStream(), p.getInputStream());
      stdio.initialize("first-calls");
      stdio.request("tools/list", new JsonObject());
      double listedMs = (System.nanoTime() - start) / 1e6;
      int n = 300;
      double[] ms = new double[n];
      for (int i = 0; i < n; i++) {
        stdio.tool("gram_capabilities", new JsonObject());
        ms[i] = stdio.lastNanos() / 1e6;
      }
      double overMs = (System.nanoTime() - start) / 1e6;
      // The same calls later, once the process is warm.
      Thread.sleep(15_000);
      double[] later = new double[n];
      for (int round = 0; round < 10; round++) {
        for (int i = 0; i < n; i++) {
          stdio.tool("gram_capabilities", new JsonObject());
          later[i] = stdio.lastNanos() / 1e6;
        }
      }
      Bench.put("sidecar.firstCalls." + what, Map.of("p50Ms", median(ms, 0, n), "p99Ms", p99(ms), "calls100to300P50Ms",
          median(ms, 100, n), "toolsListMs", listedMs, "lastCallMsAfterStart", overMs, "warmP50Ms", median(later, 0, n)));
      Bench.row(String.format(Locale.ROOT, "| sidecar: first 300 gram_capabilities after start, %s | %.0f ms to tools/list | %s | %s | calls 100–300 p50 %s; all 300 done %.0f ms after start; warm (3,000 calls later) p50 %s |",
          what, listedMs, Stats.ms(median(ms, 0, n)), Stats.ms(p99(ms)), Stats.ms(median(ms, 100, n)), overMs,
          Stats.ms(median(later, 0, n))));
    } finally {
      p.getOutputStream().close();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  // ------------------------------------------------------------------ peer

  /**
   * Runs {@code server/src/test/peer/peer-compare.sh} on the jar under test (it installs the
   * reference memory server and the TypeScript SDK from npm into {@code dir}) and adds its
   * figures to the table; one line when node or npm is missing.
   */
  static void peer(Path dir) throws Exception {
    Path script = Path.of(System.getProperty("bench.peerScript", "src/test/peer/peer-compare.sh")).toAbsolutePath();
    if (!Files.isRegularFile(script)) {
      Bench.row("| peer comparison | skipped | | | no " + script + " |");
      return;
    }
    Files.createDirectories(dir);
    ProcessBuilder pb = new ProcessBuilder("sh", script.toString(), ServerProcess.jar().toAbsolutePath().toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("PEER_SCRATCH", dir.toAbsolutePath().toString());
    pb.environment().put("JAVA", ServerProcess.java());
    Process p = pb.start();
    List<String> lines = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    int status = p.waitFor();
    String json = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    if (status != 0 || !json.startsWith("{")) {
      String why = lines.isEmpty() ? "exit status " + status : lines.get(0);
      Bench.row("| peer comparison | skipped | | | " + why + " |");
      return;
    }
    JsonObject r = new JsonObject(json);
    Bench.put("peer", r.getMap());
    for (String phase : List.of("AtOnce", "AtRest")) {
      JsonObject g = r.getJsonObject("gram" + phase);
      JsonObject m = r.getJsonObject("memory" + phase);
      Bench.row(String.format(Locale.ROOT,
          "| peer: query %s, %d records, stdio, TypeScript SDK %s client: gram_recall keyword / server-memory %s search_nodes | %.1f× | %s / %s | %s / %s | ratio of p50s%s |",
          phase.equals("AtOnce") ? "at once after the ingest" : "at rest", r.getInteger("records"), r.getString("sdkVersion"),
          r.getString("memoryVersion"), m.getDouble("p50") / g.getDouble("p50"), Stats.ms(g.getDouble("p50")),
          Stats.ms(m.getDouble("p50")), Stats.ms(g.getDouble("p99")), Stats.ms(m.getDouble("p99")),
          phase.equals("AtOnce") && Boolean.TRUE.equals(g.getBoolean("whileEmbedding")) ? "; gram still computing vectors" : ""));
    }
  }

  // ------------------------------------------------------------------ plumbing

  static double median(double[] values, int from, int to) {
    return Bench.median(values, Math.max(0, from), Math.min(values.length, to));
  }

  static double p99(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    return s[(int) Math.floor(s.length * 0.99)];
  }

  private static String capital(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
