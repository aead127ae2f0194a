package dev.gram.server;

import dev.gram.format.Entity;
import dev.gram.index.IndexStatus;
import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import dev.gram.store.DocSnapshot;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the server's own recall path a few thousand questions once the vault is large and the
 * clients are quiet, so that the agents' first questions find that path compiled.
 *
 * <p>Why: a JVM runs new code in its interpreter until the JIT has seen it often enough, and a
 * recall's path is long (the JSON-RPC layer, argument checks, query analysis, Lucene's scorers,
 * the answer's encoding). Over stdio, on a generated conversation corpus (5 conversations, 2,840
 * units), a fresh server answered 462 keyword questions at p50 2.41 ms the first time they were
 * asked, 1.55 ms the second and 1.32 ms the third; a server that had first run this warm-up
 * (3,000 other questions, 6.1 s) at 1.64, 1.16 and 1.14 ms (one run each). So a third of the
 * first minute's cost moves to the server's idle time. (A warm-up of the index alone, recalls of
 * the index's own words, did not help: most of the path is above the index.)
 *
 * <p>The questions go through the dispatcher, as a client's would, on a channel of their own
 * (transport {@code warmup} in the metrics): argument checks, the search, the answer's encoding.
 * They are built from the vault's own records, as an agent asks about them: a sentence naming a
 * record's owner and a few of its words, a short phrase, with a typo, with a date; in the record's
 * folder, or in the whole vault; hybrid and auto when semantic search works. They only read. Why
 * records and not titles: the JIT compiles the branches it has seen, and a question that names a
 * person, asks inside a folder and has a dozen words takes other branches of the query and of
 * Lucene's scorers than a few title words asked of the whole vault.
 *
 * <p>How many: at least {@link #MIN_CALLS}; then, once every vector is computed, on until the JIT
 * falls quiet ({@link #jitQuiet}), at most {@link #MAX_CALLS}. On the conversation corpus (5,422
 * turns, 956 questions over stdio, a client in Python) the first ask of every question answered
 * at p50 0.65–0.75 ms after 3,000 questions and 0.47–0.50 ms after the JIT fell quiet (26,000
 * questions, 15 s).
 *
 * <p>It yields to agents: it starts once the index holds {@link #MIN_UNITS} units with nothing
 * pending (a vault that small is quick whatever the JIT does) and the clients are quiet, reads the
 * records it asks about on a worker thread, not on the event loop, asks one question at a time, and
 * asks the next only when no client call is running and none was served for {@link #QUIET_MS}.
 * Background work does not yield to it ({@code CallContext.background}). It runs once per
 * process, and not at all with {@code -Dgram.warmup=off}.
 */
final class RecallWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(RecallWarmup.class);

  static final String PROPERTY = "gram.warmup";
  static final int MIN_UNITS = 1_000;
  /** Questions asked at least, and at most (the JIT may never fall quiet on a busy machine). */
  static final int MIN_CALLS = 3_000;
  static final int MAX_CALLS = 30_000;
  /** Questions between two looks at the JIT. */
  static final int BATCH = 1_000;
  /** The JIT is quiet when it compiled for less than this share of a batch's time. */
  static final double QUIET_JIT = 0.2;
  static final long QUIET_MS = 100;
  private static final long CHECK_MS = 1_000;
  /** Records asked about at most. */
  private static final int TOPICS = 2_000;
  /** Questions of an agent: a person ({@code %1$s}, a record's owner) and some of a record's words. */
  private static final String[] FORMS = {
    "What did %s say about %s?",
    "When did %s %s?",
    "How is %2$s going?",
    "%2$s",
    "Why did %s decide %s last week?",
    "%s %s",
    "Who is working on %2$s?",
    "What happened with %2$s in May 2024?",
  };

  private static final java.util.regex.Pattern NOT_WORD = java.util.regex.Pattern.compile("[^\\p{L}\\p{N}']+");

  /** A record to ask about: its document's folder (null at the top), its owner (or null), its words. */
  private record Topic(String folder, String owner, List<String> words) {}

  private final Vertx vertx;
  private final McpDispatcher dispatcher;
  private final IndexStatus index;
  private final Supplier<List<DocSnapshot>> documents;
  private final Channel channel = Channel.warmup("recall");
  private long timer;
  private boolean started;
  private volatile int asked;
  private volatile boolean finished;
  private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
  /** Time spent asking (waits for clients and vectors left out), and its value at the last look. */
  private long askingNanos;
  private long askingAtLook;
  private long jitMsAtLook;
  /** The question count at the last look at the JIT. */
  private int lookedAt = -1;
  private List<Topic> topics;
  private boolean semantic;
  private long startedAt;
  private volatile boolean stopped;

  private RecallWarmup(
      Vertx vertx, McpDispatcher dispatcher, IndexStatus index, Supplier<List<DocSnapshot>> documents) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.index = index;
    this.documents = documents;
  }

  /** Watches for the moment to warm up; {@link #stop} at shutdown (null when turned off). */
  static RecallWarmup start(
      Vertx vertx, McpDispatcher dispatcher, IndexStatus index, Supplier<List<DocSnapshot>> documents) {
    if ("off".equalsIgnoreCase(System.getProperty(PROPERTY, "on"))) {
      return null;
    }
    RecallWarmup w = new RecallWarmup(vertx, dispatcher, index, documents);
    w.timer = vertx.setPeriodic(CHECK_MS, id -> w.check());
    return w;
  }

  /** Questions answered so far. */
  int answered() {
    return asked;
  }

  /** True once it has asked its last question. */
  boolean finished() {
    return finished;
  }

  /** Asks nothing more: a stopping server drains the clients' calls, not these. */
  void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
  }

  private void check() {
    if (started || stopped) {
      return;
    }
    IndexStatus.Stats stats = index.stats();
    if (index.units() < MIN_UNITS || stats.pendingFiles() > 0 || index.lag().commits() > 0 || !clientsQuiet()) {
      return;
    }
    started = true;
    vertx.cancelTimer(timer);
    // Reading a few thousand records for their words is not the event loop's work: at once after
    // an ingest it held the clients' calls behind it (JFR: a fifth of the event loop's samples
    // while a client asked its first thousand questions).
    vertx.executeBlocking(() -> choose(documents.get()), false).onSuccess(chosen -> {
      topics = chosen;
      semantic = index.semantic().available();
      if (!topics.isEmpty() && !stopped) {
        begin();
      }
    });
  }

  private void begin() {
    startedAt = System.nanoTime();
    LOG.info("recall warm-up: {} to {} questions about {} of the vault's records, when clients are quiet", MIN_CALLS,
        MAX_CALLS, topics.size());
    dispatcher
        .handle(message("initialize", new JsonObject().put("protocolVersion", "2025-06-18")
            .put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "gram-warmup").put("version", "1"))), channel)
        .onComplete(ar -> {
          dispatcher.handle(JsonRpc.parse(Buffer.buffer(
              new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized").encode())), channel);
          next();
        });
  }

  /**
   * What to ask about: records spread over the vault's documents, each with its document's folder,
   * its owner and the words of its title and text, so that the questions have the shape of an
   * agent's (a sentence naming a person and a few of the record's words, inside its folder).
   */
  private static List<Topic> choose(List<DocSnapshot> vault) {
    List<DocSnapshot> docs = new ArrayList<>(vault);
    docs.removeIf(d -> d.state() == null || d.state().records().isEmpty());
    List<Topic> topics = new ArrayList<>();
    int perDoc = Math.max(1, TOPICS / Math.max(1, docs.size()));
    for (int i = 0; i < docs.size() && topics.size() < TOPICS; i++) {
      DocSnapshot d = docs.get(i);
      int slash = d.path().lastIndexOf('/');
      String folder = slash > 0 ? d.path().substring(0, slash) : null;
      List<Entity> records = d.state().records();
      for (int k = 0; k < perDoc && k < records.size(); k++) {
        Entity r = records.get(k * records.size() / perDoc);
        List<String> words = new ArrayList<>();
        addWords(words, r.title());
        addWords(words, r.first("d"));
        if (words.size() >= 2) {
          topics.add(new Topic(folder, r.first("owner"), words));
        }
      }
    }
    return topics;
  }

  private static void addWords(List<String> into, String text) {
    if (text == null) {
      return;
    }
    for (String w : NOT_WORD.split(text)) {
      if (w.length() >= 3 && into.size() < 40) {
        into.add(w);
      }
    }
  }

  /** Asks the next question when the clients are quiet; waits {@link #QUIET_MS} when not. */
  private void next() {
    if (stopped) {
      return;
    }
    if (asked >= MAX_CALLS || asked % BATCH == 0 && asked != lookedAt && jitQuiet() && asked >= MIN_CALLS) {
      finished = true;
      LOG.info("recall warmed up: {} questions in {} ms", asked, (System.nanoTime() - startedAt) / 1_000_000);
      return;
    }
    if (!clientsQuiet()) {
      vertx.setTimer(QUIET_MS, id -> next());
      return;
    }
    if (asked >= MIN_CALLS && index.semantic().available() && index.unembeddedChunks() > 0) {
      // Past its first questions it waits for the vectors: asked on beside the embedder until
      // the JIT was quiet, it delayed the last of 10,000 records' vectors from 70 s to 83–87 s
      // after an ingest (one core for the questions and the compiler, and the index's merges
      // of the vectors wait for it).
      vertx.setTimer(CHECK_MS, id -> next());
      return;
    }
    long askedAt = System.nanoTime();
    dispatcher.handle(message("tools/call", new JsonObject().put("name", "gram_recall").put("arguments", arguments(asked))), channel)
        .onComplete(ar -> {
          asked++;
          askingNanos += System.nanoTime() - askedAt;
          // On the next turn: the dispatcher counts this call as running until its own
          // listeners, which come after this one, have run.
          vertx.runOnContext(v -> next());
        });
  }

  /** No client call is running, and none was served for {@link #QUIET_MS}. */
  private boolean clientsQuiet() {
    long last = dispatcher.lastRequestNanos();
    return dispatcher.running() == 0 && (last == 0 || System.nanoTime() - last >= QUIET_MS * 1_000_000);
  }

  /**
   * The arguments of question {@code i}: a form filled with an owner and some words of one
   * record, in that record's folder or (one in four) the whole vault; a mode.
   */
  JsonObject arguments(int i) {
    Topic t = topics.get(Math.floorMod(i * 7919, topics.size()));
    int n = Math.min(t.words().size(), 2 + i % 6);
    int from = Math.floorMod(i * 31, t.words().size() - n + 1);
    String words = String.join(" ", t.words().subList(from, from + n));
    String who = t.owner() != null ? t.owner() : t.words().get(0);
    String query = String.format(Locale.ROOT, FORMS[i % FORMS.length], who, words);
    if (i % 7 == 3) {
      query = typo(query);
    }
    String mode = "keyword";
    if (semantic && i % 20 == 1) {
      mode = "hybrid";
    } else if (semantic && i % 20 == 11) {
      mode = "auto";
    }
    JsonObject args = new JsonObject().put("query", query).put("mode", mode);
    if (t.folder() != null && i % 4 != 0) {
      args.put("folder", t.folder());
    }
    if (i % 2 == 0) {
      args.put("top_k", 10);
    }
    return args;
  }

  /**
   * Whether the JIT compiled for less than {@link #QUIET_JIT} of the time spent asking since the
   * last look (a batch ago). Why: the JIT raises its thresholds while its queue is long, so the
   * hottest methods of a recall wait for their optimized compilation until well after a fixed
   * number of questions: on the generated conversation corpus over stdio, the compiler still took
   * 0.5 ms of CPU per client question after 8,000 warm-up questions, and 0.14 ms after 20,000
   * (docs/performance.md). Without the JIT's compilation time the warm-up stops at {@link
   * #MIN_CALLS}.
   */
  private boolean jitQuiet() {
    boolean first = lookedAt < 0;
    lookedAt = asked;
    if (!jit.isCompilationTimeMonitoringSupported()) {
      return true;
    }
    long jitMs = jit.getTotalCompilationTime();
    boolean quiet = !first && (jitMs - jitMsAtLook) * 1_000_000.0 < QUIET_JIT * (askingNanos - askingAtLook);
    askingAtLook = askingNanos;
    jitMsAtLook = jitMs;
    return quiet;
  }

  /** The query with two neighbouring letters of its longest word swapped. */
  private static String typo(String query) {
    String longest = "";
    for (String w : query.split(" ")) {
      if (w.length() > longest.length()) {
        longest = w;
      }
    }
    if (longest.length() < 5) {
      return query;
    }
    char[] c = longest.toCharArray();
    char t = c[2];
    c[2] = c[3];
    c[3] = t;
    return query.replace(longest, new String(c));
  }

  private JsonRpc.Message message(String method, JsonObject params) {
    return JsonRpc.parse(Buffer.buffer(new JsonObject().put("jsonrpc", "2.0").put("id", "warmup-" + asked + "-" + method)
        .put("method", method).put("params", params).encode()));
  }
}
