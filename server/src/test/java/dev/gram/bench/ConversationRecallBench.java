package dev.gram.bench;

import dev.gram.testing.ConversationCorpus;
import dev.gram.testing.ConversationCorpus.Conversation;
import dev.gram.testing.ConversationCorpus.Corpus;
import dev.gram.testing.ConversationCorpus.Question;
import dev.gram.testing.ConversationCorpus.Session;
import dev.gram.testing.ConversationEval;
import dev.gram.testing.RecallScores;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Recall quality and latency on long conversations, over stdio against the built jar, the way
 * issue 32 measures it: each conversation a project folder, each session one document created by
 * {@code gram_create} with one {@code event} record per turn, every question asked unchanged with
 * {@code folder} and {@code top_k} 10 once the index and every vector have settled. Prints
 * recall@5, recall@10 and MRR per mode next to a plain BM25 over the same turns computed in the
 * same run, p50 latency per mode, the labelled corpus of {@code RecallQualityTest} per mode, and
 * the targets of the issue, met or not.
 *
 * <pre>
 * mvn -B -Pbench -DskipTests package exec:exec -Dbench.main=dev.gram.bench.ConversationRecallBench
 *   [-Dconv.seed=1] [-Dconv.conversations=10] [-Dconv.sessions=24] [-Dconv.style=default|terse]
 * </pre>
 *
 * The corpus is generated ({@link ConversationCorpus}): nothing is downloaded. Latency: before the
 * quality pass, each mode answers questions no mode has been asked yet (a model keeps the vectors
 * of recent queries, so a question asked again in another mode costs less; the quality pass's own
 * p50 is printed too).
 */
public final class ConversationRecallBench {
  static final List<String> MODES = List.of("keyword", "semantic", "hybrid", "auto");
  /** The labelled corpus before issue 32, recall@5/MRR per mode (docs/recall.md). */
  static final Map<String, double[]> LABELLED_BEFORE = Map.of(
      "exact", new double[] {0.33, 0.33}, "keyword", new double[] {0.86, 0.81}, "semantic", new double[] {0.84, 0.78},
      "hybrid", new double[] {0.95, 0.87}, "auto", new double[] {0.95, 0.91});

  private ConversationRecallBench() {}

  public static void main(String[] args) throws Exception {
    long seed = Long.getLong("conv.seed", 1);
    int conversations = Integer.getInteger("conv.conversations", 10);
    int sessions = Integer.getInteger("conv.sessions", 24);
    ConversationCorpus.Style style =
        "terse".equals(System.getProperty("conv.style")) ? ConversationCorpus.Style.TERSE : ConversationCorpus.Style.DEFAULT;
    Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).resolve("conversations");
    if (Files.exists(dir)) {
      Bench.deleteTree(dir);
    }
    Files.createDirectories(dir);
    Corpus corpus = ConversationCorpus.generate(seed, conversations, sessions, style);
    writeQuestions(corpus, dir.resolve("questions.json"));
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "jar %s%ncorpus: seed %d, style %s, %d conversations, %d sessions, %d turns, %d questions%n",
        ServerProcess.jar(), seed, style.name(), corpus.conversations().size(), corpus.sessions(), corpus.turns(),
        corpus.questions().size()));
    Map<String, ConversationEval.Result> results = new LinkedHashMap<>();
    Map<String, Double> firstP50 = new LinkedHashMap<>();
    Map<String, Double> passP50 = new LinkedHashMap<>();
    Map<String, double[]> labelled = new LinkedHashMap<>();
    try (ServerProcess server = ServerProcess.start(dir, "--no-welcome", "--no-http")) {
      StdioClient rpc = new StdioClient(server.stdin(), server.stdout(), false);
      initialize(rpc);
      long t0 = System.nanoTime();
      for (Conversation c : corpus.conversations()) {
        for (Session s : c.sessions()) {
          call(rpc, "gram_create", ConversationCorpus.createArguments(c, s, style));
        }
      }
      double ingest = (System.nanoTime() - t0) / 1e9;
      settle(rpc, server);
      out.append(String.format(Locale.ROOT, "stored %d sessions in %.1f s; index and vectors settled %.0f s after the last write%n",
          corpus.sessions(), ingest, (System.nanoTime() - t0) / 1e9 - ingest));
      out.append(capabilities(rpc)).append('\n');
      // Latency first, on questions no mode was asked yet.
      List<Question> qs = corpus.questions();
      int slice = Math.max(1, qs.size() / MODES.size());
      for (int m = 0; m < MODES.size(); m++) {
        List<Long> lat = new ArrayList<>();
        for (Question q : qs.subList(m * slice, Math.min(qs.size(), (m + 1) * slice))) {
          long s0 = System.nanoTime();
          recall(rpc, q.text(), q.conversation(), MODES.get(m));
          lat.add(System.nanoTime() - s0);
        }
        firstP50.put(MODES.get(m), p50(lat));
      }
      for (String mode : MODES) {
        List<Long> lat = new ArrayList<>();
        ConversationEval.Result r = ConversationEval.run(corpus, (q, folder, md) -> {
          long s0 = System.nanoTime();
          List<String> hits = recall(rpc, q, folder, md);
          lat.add(System.nanoTime() - s0);
          return hits;
        }, mode, null);
        results.put(mode, r);
        passP50.put(mode, p50(lat));
      }
      server.stop();
    }
    ConversationEval.Result bm25 = ConversationEval.bm25(corpus);
    out.append("\n| mode | recall@5 | recall@10 | MRR | p50 first ask | p50 in pass | by kind (r@5/r@10) |\n|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, ConversationEval.Result> e : results.entrySet()) {
      RecallScores a = e.getValue().all();
      out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.2f ms | %.2f ms | %s |%n", e.getKey(), a.recall5(),
          a.recall10(), a.mrr(), firstP50.get(e.getKey()), passP50.get(e.getKey()), e.getValue().kinds()));
    }
    out.append(String.format(Locale.ROOT, "| plain BM25 (same run) | %.3f | %.3f | %.3f | | | %s |%n", bm25.all().recall5(),
        bm25.all().recall10(), bm25.all().mrr(), bm25.kinds()));
    System.out.println(out);
    labelled(dir.resolve("labelled"), labelled);
    out.append("\nlabelled corpus (recall@5 / MRR), before → now:\n");
    labelled.forEach((m, v) -> out.append(String.format(Locale.ROOT, "  %-8s %.2f/%.2f → %.2f/%.2f%n", m,
        LABELLED_BEFORE.get(m)[0], LABELLED_BEFORE.get(m)[1], v[0], v[1])));
    out.append("\ntargets:\n");
    RecallScores auto = results.get("auto").all();
    RecallScores kw = results.get("keyword").all();
    RecallScores hy = results.get("hybrid").all();
    target(out, "auto recall@10 >= 0.75", auto.recall10(), auto.recall10() >= 0.75);
    target(out, "auto recall@5 >= 0.65", auto.recall5(), auto.recall5() >= 0.65);
    target(out, "keyword recall@5 >= BM25 + 0.03 (" + fmt(bm25.all().recall5() + 0.03) + ")", kw.recall5(),
        kw.recall5() >= bm25.all().recall5() + 0.03);
    target(out, "keyword recall@10 >= BM25 + 0.03 (" + fmt(bm25.all().recall10() + 0.03) + ")", kw.recall10(),
        kw.recall10() >= bm25.all().recall10() + 0.03);
    target(out, "hybrid recall@10 >= 0.75", hy.recall10(), hy.recall10() >= 0.75);
    target(out, "keyword p50 <= 0.5 ms (ms, first ask)", firstP50.get("keyword"), firstP50.get("keyword") <= 0.5);
    target(out, "hybrid p50 <= 2 ms (ms, first ask)", firstP50.get("hybrid"), firstP50.get("hybrid") <= 2);
    target(out, "auto p50 <= 2 ms (ms, first ask)", firstP50.get("auto"), firstP50.get("auto") <= 2);
    boolean kept = true;
    for (Map.Entry<String, double[]> e : labelled.entrySet()) {
      double[] before = LABELLED_BEFORE.get(e.getKey());
      kept &= e.getValue()[0] >= before[0] - 0.005 && e.getValue()[1] >= before[1] - 0.005;
    }
    out.append(String.format(Locale.ROOT, "  %-52s %s%n", "labelled corpus does not fall in any mode", kept ? "met" : "NOT met"));
    System.out.println(out);
    Path report = dir.resolveSibling("conversation-recall.txt");
    Files.writeString(report, out.toString());
    System.exit(0);
  }

  private static void target(StringBuilder out, String what, double value, boolean met) {
    out.append(String.format(Locale.ROOT, "  %-52s %.3f %s%n", what, value, met ? "met" : "NOT met"));
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  /** The labelled corpus of RecallQualityTest over stdio: recall@5 and MRR per mode. */
  static void labelled(Path dir, Map<String, double[]> out) throws Exception {
    Path corpus = resource("/recall-corpus");
    dev.gram.testing.Trees.copy(corpus.resolve("vault"), dir.resolve("vault"));
    List<JsonObject> queries = new ArrayList<>();
    for (String line : Files.readAllLines(corpus.resolve("queries.jsonl"))) {
      if (!line.isBlank()) {
        queries.add(new JsonObject(line));
      }
    }
    try (ServerProcess server = ServerProcess.start(dir, "--no-welcome", "--no-http")) {
      StdioClient rpc = new StdioClient(server.stdin(), server.stdout(), false);
      initialize(rpc);
      settle(rpc, server);
      for (String mode : List.of("exact", "keyword", "semantic", "hybrid", "auto")) {
        double r5 = 0;
        double mrr = 0;
        for (JsonObject q : queries) {
          List<String> expect = q.getJsonArray("expect").stream().map(String.class::cast).toList();
          List<String> hits = recall(rpc, q.getString("q"), null, mode);
          r5 += RecallScores.share(hits, expect, 5);
          for (int i = 0; i < hits.size(); i++) {
            if (expect.contains(hits.get(i))) {
              mrr += 1.0 / (i + 1);
              break;
            }
          }
        }
        out.put(mode, new double[] {r5 / queries.size(), mrr / queries.size()});
      }
      server.stop();
    }
  }

  /** The legacy handshake, patient with a server starting on a busy machine. */
  static void initialize(StdioClient rpc) {
    rpc.send("init", "initialize", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "conversation-bench").put("version", "1")), java.time.Duration.ofMinutes(5))
        .join();
    rpc.notify("notifications/initialized", null);
  }

  /** Waits until nothing is pending and every unit has its vector, then until the server is idle. */
  static void settle(StdioClient rpc, ServerProcess server) throws Exception {
    long end = System.nanoTime() + 3_600_000_000_000L;
    while (System.nanoTime() < end) {
      JsonObject a;
      try {
        a = call(rpc, "gram_recall", new JsonObject().put("query", "anything").put("mode", "semantic"));
      } catch (RuntimeException e) {
        // A server starting on a busy machine may take longer than a request's timeout, or
        // answer E_TIMEOUT while its index opens.
        Thread.sleep(500);
        continue;
      }
      if (!a.containsKey("partial") && !a.containsKey("fallback") && !a.containsKey("unembeddedChunks")) {
        break;
      }
      Thread.sleep(500);
    }
    Bench.awaitIdleCpu(server.pid(), 600);
  }

  static String capabilities(StdioClient rpc) {
    JsonObject c = call(rpc, "gram_capabilities", new JsonObject());
    return "capabilities: index " + c.getJsonObject("index").encode() + ", semantic " + c.getJsonObject("semantic").encode();
  }

  static List<String> recall(StdioClient rpc, String query, String folder, String mode) {
    JsonObject args = new JsonObject().put("query", query).put("mode", mode).put("top_k", 10);
    if (folder != null) {
      args.put("folder", folder);
    }
    JsonArray hits = call(rpc, "gram_recall", args).getJsonArray("hits");
    List<String> ids = new ArrayList<>(hits.size());
    for (int i = 0; i < hits.size(); i++) {
      ids.add(hits.getJsonArray(i).getString(0));
    }
    return ids;
  }

  private static final java.util.concurrent.atomic.AtomicLong CALLS = new java.util.concurrent.atomic.AtomicLong();

  static JsonObject call(StdioClient rpc, String tool, JsonObject args) {
    // Patient: a benchmark on a busy machine must not fail because one call took 20 s.
    JsonObject answer = rpc.send("b-" + CALLS.incrementAndGet(), "tools/call",
        new JsonObject().put("name", tool).put("arguments", args), java.time.Duration.ofMinutes(5)).join();
    JsonObject result = answer.getJsonObject("result");
    if (result == null || Boolean.TRUE.equals(result.getBoolean("isError"))) {
      throw new IllegalStateException(tool + " failed: " + answer.encode());
    }
    return result.getJsonObject("structuredContent");
  }

  /** The questions beside the vault, for a client outside the JVM (src/test/peer/first-ask.py). */
  private static void writeQuestions(Corpus corpus, Path file) throws java.io.IOException {
    JsonArray out = new JsonArray();
    for (Question q : corpus.questions()) {
      out.add(new JsonObject().put("q", q.text()).put("folder", q.conversation()));
    }
    Files.writeString(file, out.encode());
  }

  private static double p50(List<Long> nanos) {
    long[] l = nanos.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(l);
    return l.length == 0 ? Double.NaN : l[(l.length - 1) / 2] / 1e6;
  }

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(ConversationRecallBench.class.getResource(name).toURI());
  }

}
