package dev.gram.bench;

import dev.gram.index.IndexStatus;
import dev.gram.server.ServerConfig;
import dev.gram.server.Services;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Recall latency per mode and index build rate on a generated vault of 100,000 records. Not part
 * of the test run:
 *
 * <pre>
 * mvn -B -o -q test-compile
 * java -Xmx4g -cp target/test-classes:target/classes:$(cat cp.txt) dev.gram.bench.RecallBench [dir] [records] [queries]
 * </pre>
 *
 * (cp.txt from {@code mvn dependency:build-classpath -Dmdep.outputFile=cp.txt -Dmdep.includeScope=test}.)
 *
 * <p>The vault is written by a small generator of its own (shared/VaultGenerator was not there
 * yet): 100 records a document in 20 project folders, every record with a title, a description,
 * dates on events, tasks and metrics, tags and s-tags, and four body sections a document. Then
 * the whole server is started on it with an empty index, and the bench measures how fast the
 * keyword index and the vectors are built in the background, then the latency of recall per mode
 * (one client, sequential calls, after a warm-up), then a write followed at once by a recall
 * from another client (read-your-writes), and a restart on the built index.
 */
public final class RecallBench {
  private static final String[] ADJ = {
    "blue", "quiet", "remote", "legacy", "shared", "nightly", "secure", "fast", "regional", "manual",
    "partial", "broken", "stable", "hidden", "urgent", "mobile", "internal", "public", "weekly", "cold"
  };
  private static final String[] NOUN = {
    "database", "gateway", "invoice", "dashboard", "certificate", "cluster", "pipeline", "backup", "queue",
    "scheduler", "report", "sensor", "cache", "token", "login", "payment", "search", "upload", "export",
    "release", "contract", "budget", "printer", "warehouse", "shipment", "ticket", "survey", "badge", "kiosk",
    "router"
  };
  private static final String[] VERB = {
    "migrate", "replace", "audit", "monitor", "document", "retire", "upgrade", "test", "review", "rebuild",
    "archive", "measure", "encrypt", "restore", "simplify"
  };
  private static final String[] TEAM = {"alpha", "bravo", "core", "data", "edge", "field", "growth", "infra"};
  private static final String[][] TYPES = {
    {"TSK", "due"}, {"DEC", "at"}, {"EVT", "at"}, {"MET", "observed"}, {"RSK", "at"}, {"KNW", null},
    {"EVD", null}, {"REQ", null}, {"GOL", "at"}, {"PER", null}
  };

  private RecallBench() {}

  public static void main(String[] args) {
    try {
      run(args);
      System.exit(0);
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/gram-bench");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int queries = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    List<String> flags = List.of(args).subList(Math.min(3, args.length), args.length);
    boolean semantic = !flags.contains("--no-semantic");
    // --reuse: latency only, on the vault and index a previous run left (no generation, no build).
    boolean reuse = flags.contains("--reuse");
    int perDoc = 100;
    Path vault = dir.resolve("vault");
    Path index = dir.resolve("index");
    int docs;
    if (reuse) {
      try (Stream<Path> s = Files.walk(vault)) {
        docs = (int) s.filter(p -> p.toString().endsWith(".gram")).count();
      }
    } else {
      deleteTree(dir);
      long t0 = System.nanoTime();
      docs = generate(vault, records, perDoc);
      say("generated %,d records in %,d documents in %.1f s", records, docs, secs(t0));
    }

    Vertx vertx = Vertx.vertx();
    ServerConfig cfg = ServerConfig.parse(
        semantic
            ? new String[] {"--vault", vault.toString(), "--index", index.toString(), "--no-stdio"}
            : new String[] {"--vault", vault.toString(), "--index", index.toString(), "--no-stdio", "--no-semantic"},
        Map.of());
    long start = System.nanoTime();
    Services services = Services.start(vertx, cfg, Clock.systemUTC());
    IndexStatus status = services.context().index();
    Tool recall = services.tools().get("gram_recall");

    if (flags.contains("--first-after-scan")) {
      // To tell a slow first call from a machine busy loading the vault.
      services.vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    }
    // The server answers during the build.
    long firstCall = System.nanoTime();
    JsonObject early = call(vertx, recall, new JsonObject().put("query", "database gateway").put("mode", "keyword"));
    double firstMs = (System.nanoTime() - firstCall) / 1e6;
    long second = System.nanoTime();
    call(vertx, recall, new JsonObject().put("query", "quiet invoice").put("mode", "keyword"));
    say("first recall %.0f ms after start (partial=%s, pendingFiles=%s), the next one %.0f ms", firstMs,
        early.getBoolean("partial"), early.getInteger("pendingFiles"), (System.nanoTime() - second) / 1e6);

    services.vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    double scan = secs(start);
    say("vault scanned (every document parsed, history built) in %.1f s", scan);
    while (status.stats().pendingFiles() > 0 || status.stats().indexedFiles() < docs) {
      Thread.sleep(50);
    }
    double lexical = secs(start);
    if (!reuse) {
      say("keyword index: %,d documents, %,d records in %.1f s from start: %,.0f records/s, %,.0f documents/s",
          status.stats().indexedFiles(), records, lexical, records / lexical, docs / lexical);
    } else {
      say("ready on the existing index in %.1f s", lexical);
    }

    long embedStart = System.nanoTime();
    int lastChunks = 0;
    long lastReport = System.nanoTime();
    JsonObject probe = new JsonObject().put("query", "database").put("mode", "semantic");
    while (true) {
      JsonObject a = call(vertx, recall, probe);
      if (a.containsKey("fallback") && !a.getString("fallback").startsWith("EMBEDDING_LOADING")) {
        say("semantic unavailable: %s", a.getString("fallback"));
        break;
      }
      if (!a.containsKey("fallback") && !a.containsKey("unembeddedChunks") && !a.containsKey("partial")) {
        break;
      }
      Thread.sleep(1000);
      if (System.nanoTime() - lastReport > 30e9) {
        int now = status.stats().embeddedChunks();
        say("  embedded %,d chunks (%,.0f/s over the last 30 s)", now, (now - lastChunks) / secs(lastReport));
        lastChunks = now;
        lastReport = System.nanoTime();
      }
    }
    double embed = secs(embedStart);
    say("vectors: %,d chunks embedded in %.1f s after the keyword index: %,.0f chunks/s (one thread)",
        status.stats().embeddedChunks(), embed, status.stats().embeddedChunks() / embed);

    Random rnd = new Random(7);
    for (String mode : List.of("keyword", "exact", "semantic", "hybrid", "auto")) {
      List<JsonObject> qs = new ArrayList<>();
      for (int i = 0; i < queries + 50; i++) {
        qs.add(query(rnd, mode, records, perDoc));
      }
      for (JsonObject q : qs.subList(0, 50)) {
        call(vertx, recall, q);
      }
      double[] ms = new double[queries];
      int empty = 0;
      for (int i = 0; i < queries; i++) {
        long q0 = System.nanoTime();
        JsonObject a = call(vertx, recall, qs.get(50 + i));
        ms[i] = (System.nanoTime() - q0) / 1e6;
        if (a.getJsonArray("hits").isEmpty()) {
          empty++;
        }
      }
      Arrays.sort(ms);
      say("%-8s p50 %6.1f ms   p99 %6.1f ms   max %6.1f ms   (%d queries, %d without hits)", mode,
          ms[ms.length / 2], ms[(int) Math.floor(ms.length * 0.99)], ms[ms.length - 1], queries, empty);
    }
    readYourWrites(vertx, services, recall, 100);

    services.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    // A restart on the built index: nothing to redo.
    long restart = System.nanoTime();
    Services again = Services.start(vertx, cfg, Clock.systemUTC());
    again.vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    while (again.context().index().stats().pendingFiles() > 0) {
      Thread.sleep(20);
    }
    say("restart on the built index: ready (scan + fingerprint check) in %.1f s", secs(restart));
    again.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    vertx.close();
  }

  /** A patch, then at once a recall (from another thread) that must find it. */
  private static void readYourWrites(Vertx vertx, Services services, Tool recall, int n) throws Exception {
    String path = "bench/ryw-" + System.currentTimeMillis() + ".gram";
    var vault = services.vault();
    var vp = vault.paths().writableDocument(path);
    var created = dev.gram.edit.Creation.build(dev.gram.edit.Creation.newDocumentId(), "Writes", "", id -> false);
    var r = vault.submit(new dev.gram.store.WriteCommand.Create(vp, created.state(), "bench", null, created.created(),
        created.diagnostics())).toCompletionStage().toCompletableFuture().get();
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      String word = "zebrafish" + i + "q";
      JsonArray ops = new JsonArray().add(new JsonObject().put("op", "add").put("record",
          new JsonObject().put("type", "task").put("id", "w" + i)
              .put("fields", new JsonObject().put("t", new JsonArray().add("Feed the " + word)))));
      String digest = dev.gram.store.RequestDigest.of(vp.path(), r.rev(), r.hash(), ops, null);
      r = vault.submit(new dev.gram.store.WriteCommand.Patch(vp, r.rev(), r.hash(), path + "-" + i, digest, ops, "bench", null))
          .toCompletionStage().toCompletableFuture().get();
      long q0 = System.nanoTime();
      JsonObject a = call(vertx, recall, new JsonObject().put("query", word).put("mode", "keyword"));
      ms[i] = (System.nanoTime() - q0) / 1e6;
      if (a.getJsonArray("hits").isEmpty()) {
        throw new AssertionError("write " + i + " not found right after its receipt");
      }
    }
    Arrays.sort(ms);
    say("recall right after a patch (waits for its refresh): p50 %.1f ms   p99 %.1f ms   (%d writes, all found)",
        ms[n / 2], ms[(int) Math.floor(n * 0.99)], n);
  }

  private static JsonObject query(Random rnd, String mode, int records, int perDoc) {
    String q;
    switch (mode) {
      case "exact":
        {
          // The title of an existing record, as written.
          int r = rnd.nextInt(records);
          q = title(r);
          break;
        }
      case "semantic":
      case "hybrid":
        q = "which " + pick(rnd, NOUN) + " work did the " + pick(rnd, TEAM) + " team " + pick(rnd, VERB) + " last month";
        break;
      case "auto":
        q = rnd.nextBoolean() ? pick(rnd, NOUN) + " " + pick(rnd, ADJ) : "how do we " + pick(rnd, VERB) + " the " + pick(rnd, NOUN);
        break;
      default:
        q = pick(rnd, ADJ) + " " + pick(rnd, NOUN);
    }
    JsonObject o = new JsonObject().put("query", q).put("mode", mode).put("top_k", 10);
    // A fifth of the queries carry a filter, which must refill top_k.
    switch (rnd.nextInt(10)) {
      case 0:
        o.put("folder", "proj" + rnd.nextInt(20));
        break;
      case 1:
        o.put("type", "task");
        break;
      default:
        break;
    }
    return o;
  }

  private static String pick(Random r, String[] a) {
    return a[r.nextInt(a.length)];
  }

  private static String title(int r) {
    int h = (int) ((r * 2654435761L) & 0x7fffffff);
    return capital(VERB[h % VERB.length]) + " the " + ADJ[(h / 7) % ADJ.length] + " " + NOUN[(h / 11) % NOUN.length]
        + " of " + TEAM[(h / 13) % TEAM.length] + " " + r;
  }

  private static String capital(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** Writes the vault; returns the number of documents. */
  static int generate(Path vault, int records, int perDoc) throws IOException {
    Random rnd = new Random(42);
    int docs = (records + perDoc - 1) / perDoc;
    int r = 0;
    for (int d = 0; d < docs; d++) {
      StringBuilder sb = new StringBuilder();
      String project = "proj" + (d % 20);
      sb.append("@gram 2\ndoc d_bench").append(d).append("\nt ").append(capital(pick(rnd, ADJ))).append(' ')
          .append(pick(rnd, NOUN)).append(" plan ").append(d).append("\n::rich\n");
      for (int s = 0; s < 4; s++) {
        sb.append("# ").append(capital(pick(rnd, VERB))).append(" the ").append(pick(rnd, NOUN)).append("\n\n");
        for (int w = 0; w < 60; w++) {
          sb.append(w % 12 == 0 ? pick(rnd, VERB) : w % 3 == 0 ? pick(rnd, NOUN) : pick(rnd, ADJ)).append(w % 15 == 14 ? ". " : " ");
        }
        sb.append("\n\n");
      }
      sb.append("::end\n");
      for (int i = 0; i < perDoc && r < records; i++, r++) {
        String[] type = TYPES[r % TYPES.length];
        sb.append('\n').append(type[0]).append(" r").append(r).append("\nt ").append(title(r)).append('\n');
        sb.append("d The ").append(pick(rnd, TEAM)).append(" team will ").append(pick(rnd, VERB)).append(" the ")
            .append(pick(rnd, ADJ)).append(' ').append(pick(rnd, NOUN)).append(" before the ").append(pick(rnd, NOUN))
            .append(" is ").append(pick(rnd, ADJ)).append(".\n");
        if (type[1] != null) {
          sb.append(type[1]).append(String.format(Locale.ROOT, " 2026-%02d-%02d%n", 1 + rnd.nextInt(12), 1 + rnd.nextInt(28)));
        }
        if (type[0].equals("TSK") || type[0].equals("DEC") || type[0].equals("RSK")) {
          sb.append("x ").append(rnd.nextBoolean() ? "open" : "completed").append('\n');
        }
        sb.append("tag ").append(pick(rnd, NOUN)).append('\n');
        if (rnd.nextInt(4) == 0) {
          sb.append("s ").append(pick(rnd, TEAM)).append('\n');
        }
        if (type[0].equals("MET")) {
          sb.append("value ").append(rnd.nextInt(1000)).append("\nunit ms\n");
        }
      }
      Path f = vault.resolve(project).resolve("plan" + d + ".gram");
      Files.createDirectories(f.getParent());
      Files.writeString(f, sb.toString());
    }
    return docs;
  }

  private static JsonObject call(Vertx vertx, Tool tool, JsonObject args) throws Exception {
    Promise<JsonObject> p = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> tool.call(args.copy(), CallContext.of("bench")).onComplete(p));
    return p.future().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static double secs(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private static void say(String fmt, Object... args) {
    System.err.println(String.format(Locale.ROOT, fmt, args));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
