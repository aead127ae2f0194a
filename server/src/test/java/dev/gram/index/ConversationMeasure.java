package dev.gram.index;

import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.ConversationCorpus;
import dev.gram.testing.ConversationCorpus.Corpus;
import dev.gram.testing.ConversationEval;
import dev.gram.testing.GramTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The in-process measurements behind the choices of {@code docs/recall.md}: every mode and every
 * alternative of {@link IndexTuning} on the conversation corpus and on the labelled corpus, for the
 * embedding model of this process ({@code -Dgram.embedding.model}), and that model's cost per
 * chunk and per query. Not a test; run from the test class path:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat cp.txt) [-Dgram.embedding.model=bge-small-en-v1.5-q] \
 *   dev.gram.index.ConversationMeasure DIR [seed] [conversations] [default|terse]
 * </pre>
 *
 * The vault and its index (with their vectors) stay in {@code DIR} between runs, one per corpus and
 * model, so a second run embeds nothing.
 */
public final class ConversationMeasure {
  private ConversationMeasure() {}

  public static void main(String[] args) throws Exception {
    Path where = Path.of(args[0]);
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    int convs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    ConversationCorpus.Style style =
        args.length > 3 && args[3].equals("terse") ? ConversationCorpus.Style.TERSE : ConversationCorpus.Style.DEFAULT;
    String only = System.getProperty("measure.only", "conversations,labelled,cost,tunings");
    StringBuilder out = new StringBuilder();
    if (only.contains("keyword")) {
      keywordOnly(where, seed, convs, style, out);
    }
    if (only.contains("cost")) {
      cost(out);
    }
    if (only.contains("conversations")) {
      conversations(where, seed, convs, style, only.contains("tunings"), out);
    }
    if (only.contains("labelled")) {
      labelled(where, only.contains("tunings"), out);
    }
    System.out.println(out);
    System.exit(0);
  }

  /** Milliseconds of one thread per chunk (8 at a time, as the embedder does) and per query. */
  static void cost(StringBuilder out) throws Exception {
    EmbeddingModel.Encoder enc = EmbeddingModel.load();
    Corpus c = ConversationCorpus.generate(99, 1, 12, ConversationCorpus.Style.DEFAULT);
    List<String> texts = new ArrayList<>();
    c.conversations().get(0).sessions().forEach(s -> s.turns().forEach(t -> texts.add(t.speaker() + ": " + t.text())));
    List<String> queries = new ArrayList<>();
    c.questions().forEach(q -> queries.add(q.text()));
    for (int round = 0; round < 2; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i + 8 <= texts.size(); i += 8) {
        enc.embed(texts.subList(i, i + 8));
      }
      double perChunk = (System.nanoTime() - t0) / 1e6 / (texts.size() / 8 * 8);
      long t1 = System.nanoTime();
      for (String q : queries) {
        enc.embedQuery(q + " " + round);
      }
      double perQuery = (System.nanoTime() - t1) / 1e6 / queries.size();
      if (round == 1) {
        out.append(String.format(Locale.ROOT, "model %s: %.2f ms per chunk (%d turns, 8 a call), %.2f ms per query (%d)%n",
            EmbeddingModel.NAME, perChunk, texts.size(), perQuery, queries.size()));
      }
    }
  }

  static void conversations(Path where, long seed, int convs, ConversationCorpus.Style style, boolean tunings,
      StringBuilder out) throws Exception {
    Corpus corpus = ConversationCorpus.generate(seed, convs, 24, style);
    Path vault = where.resolve("conv-s" + seed + "-" + convs + "-" + style.name() + "-" + EmbeddingModel.NAME).resolve("vault");
    out.append(String.format(Locale.ROOT,
        "conversations, seed %d, style %s: %d conversations, %d sessions, %d turns, %d questions; model %s%n", seed,
        style.name(), corpus.conversations().size(), corpus.sessions(), corpus.turns(), corpus.questions().size(),
        EmbeddingModel.NAME));
    boolean fresh = !Files.exists(vault);
    Files.createDirectories(vault);
    long t0 = System.nanoTime();
    try (GramTestServer s = GramTestServer.start(vault, "--semantic")) {
      if (fresh) {
        ConversationRecallTest.store(s, corpus, style);
      }
      awaitEmbedded(s);
    }
    if (fresh) {
      out.append(String.format(Locale.ROOT, "stored and embedded in %.0f s%n", (System.nanoTime() - t0) / 1e9));
    }
    out.append("| mode | recall@5 | recall@10 | MRR | by kind (r@5/r@10) |\n|---|---|---|---|---|\n");
    out.append(row("plain BM25", ConversationEval.bm25(corpus)));
    StringBuilder misses = new StringBuilder();
    for (Map.Entry<String, IndexTuning> t : alternatives(tunings).entrySet()) {
      evaluateWith(vault, t.getValue(), index -> {
        List<String> modes = t.getKey().isEmpty() ? List.of("keyword", "semantic", "hybrid", "auto") : List.of("hybrid");
        for (String mode : modes) {
          out.append(row(mode + t.getKey(),
              ConversationEval.run(corpus, ConversationRecallTest.viaIndex(index), mode, t.getKey().isEmpty() ? misses : null)));
        }
      });
    }
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "conversation-misses-" + EmbeddingModel.NAME + ".txt"), misses);
  }

  /** Keyword mode alone, without vectors: a fresh vault each run, for the keyword knobs. */
  static void keywordOnly(Path where, long seed, int convs, ConversationCorpus.Style style, StringBuilder out)
      throws Exception {
    Corpus corpus = ConversationCorpus.generate(seed, convs, 24, style);
    Path vault = Files.createTempDirectory(Files.createDirectories(where), "kw").resolve("vault");
    try (GramTestServer s = GramTestServer.start(vault)) {
      ConversationRecallTest.store(s, corpus, style);
      Fixtures.awaitIndexed(s);
      out.append(row("plain BM25", ConversationEval.bm25(corpus)));
      out.append(row("keyword " + System.getProperties().entrySet().stream()
          .filter(e -> e.getKey().toString().startsWith("gram.q.")).map(Object::toString).sorted().toList(),
          ConversationEval.run(corpus, ConversationRecallTest.viaTool(s), "keyword", null)));
    }
    RecallQualityTest.copyVault(vault.resolveSibling("labelled"));
    try (GramTestServer s = GramTestServer.start(vault.resolveSibling("labelled"))) {
      Fixtures.awaitIndexed(s);
      out.append(RecallQualityTest.line("labelled keyword",
          RecallQualityTest.evaluate(RecallQualityTest.viaTool(s), "keyword", RecallQualityTest.queries(), null))).append('\n');
    }
  }

  /** The labelled corpus of RecallQualityTest, every mode, recall@5 and MRR. */
  static void labelled(Path where, boolean tunings, StringBuilder out) throws Exception {
    Path vault = where.resolve("labelled-" + EmbeddingModel.NAME).resolve("vault");
    if (!Files.exists(vault)) {
      RecallQualityTest.copyVault(vault);
    }
    try (GramTestServer s = GramTestServer.start(vault, "--semantic")) {
      awaitEmbedded(s);
    }
    List<RecallQualityTest.Query> queries = RecallQualityTest.queries();
    out.append("labelled corpus (recall@5/MRR), model ").append(EmbeddingModel.NAME).append('\n');
    for (Map.Entry<String, IndexTuning> t : alternatives(tunings).entrySet()) {
      evaluateWith(vault, t.getValue(), index -> {
        List<String> modes =
            t.getKey().isEmpty() ? List.of("exact", "keyword", "semantic", "hybrid", "auto") : List.of("hybrid");
        for (String mode : modes) {
          out.append(RecallQualityTest.line(mode + t.getKey(),
              RecallQualityTest.evaluate(RecallQualityTest.viaIndex(index), mode, queries, null))).append('\n');
        }
      });
    }
  }

  /** Every unit embedded: the larger models take minutes for a few thousand turns on a busy machine. */
  static void awaitEmbedded(GramTestServer s) {
    Fixtures.recallUntil(s, new io.vertx.core.json.JsonObject().put("query", "anything").put("mode", "semantic"),
        a -> !a.containsKey("partial") && !a.containsKey("fallback") && !a.containsKey("unembeddedChunks"), 1_800_000);
  }

  /**
   * The defaults ("") and the fusions compared with them: {@code -Dmeasure.fusions=CONVEX:0.5,RRF:0.3,…}
   * (method and semantic weight).
   */
  static Map<String, IndexTuning> alternatives(boolean all) {
    Map<String, IndexTuning> out = new LinkedHashMap<>();
    out.put("", IndexTuning.DEFAULTS);
    if (all) {
      for (String m : System.getProperty("measure.fusions", "CONVEX:0.5,CONVEX:0.7,RRF:0.5,ZSCORE:0.5,ZSCORE:0.7")
          .split(",")) {
        String[] f = m.split(":");
        out.put("/" + f[0] + "/w=" + f[1],
            IndexTuning.DEFAULTS.withFusion(HybridFusion.Method.valueOf(f[0]), Double.parseDouble(f[1])));
      }
    }
    return out;
  }

  static String row(String name, ConversationEval.Result r) {
    return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %s |%n", name, r.all().recall5(), r.all().recall10(),
        r.all().mrr(), r.kinds());
  }

  interface WithIndex {
    void run(Recall index) throws Exception;
  }

  static void evaluateWith(Path vault, IndexTuning tuning, WithIndex body) throws Exception {
    Vault v = new Vault(new PathResolver(vault, List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex index =
        RecallIndex.open(v, vault.resolveSibling(vault.getFileName() + "-index"), EmbeddingModel::shared, tuning);
    try {
      Fixtures.await(v.start());
      if (!index.awaitIdle(600_000, true)) {
        throw new IllegalStateException("index not idle with every vector");
      }
      body.run(index);
    } finally {
      index.close();
      Fixtures.await(v.close());
    }
  }
}
