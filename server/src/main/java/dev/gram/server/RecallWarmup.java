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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
 * They are built from the vault's own titles, as sentences, short phrases, with a typo, with a
 * date, in the folder that holds the most documents and in the whole vault; hybrid and auto
 * when semantic search works. They only read.
 *
 * <p>It yields to agents: it starts once the index holds {@link #MIN_UNITS} units with nothing
 * pending (a vault that small is quick whatever the JIT does), asks one question at a time, and
 * asks the next only when no client call is running and none was served for {@link #QUIET_MS}.
 * It runs once per process, and not at all with {@code -Dgram.warmup=off}.
 */
final class RecallWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(RecallWarmup.class);

  static final String PROPERTY = "gram.warmup";
  static final int MIN_UNITS = 1_000;
  static final int CALLS = 3_000;
  static final long QUIET_MS = 100;
  private static final long CHECK_MS = 1_000;
  private static final String[] FORMS = {
    "What did %s say about the %s?",
    "When did %s %s the %s?",
    "How is the %s %s going?",
    "%s %s",
    "Why was the %s %s changed last week?",
    "%s",
    "Who is working on %s %s?",
    "What happened with the %s in May 2024?",
  };

  private final Vertx vertx;
  private final McpDispatcher dispatcher;
  private final IndexStatus index;
  private final Supplier<List<DocSnapshot>> documents;
  private final Channel channel = Channel.warmup("recall");
  private long timer;
  private boolean started;
  private volatile int asked;
  private List<String> words;
  private String folder;
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
    if (index.units() < MIN_UNITS || stats.pendingFiles() > 0 || index.lag().commits() > 0) {
      return;
    }
    started = true;
    vertx.cancelTimer(timer);
    choose();
    if (words.size() < 2) {
      return;
    }
    startedAt = System.nanoTime();
    LOG.info("recall warm-up: {} questions from {} words of the vault's titles, when clients are quiet", CALLS, words.size());
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

  /** The words and folder to ask about: from the documents' titles and their records'. */
  private void choose() {
    Set<String> found = new LinkedHashSet<>();
    java.util.Map<String, Integer> folders = new java.util.HashMap<>();
    for (DocSnapshot d : documents.get()) {
      int slash = d.path().indexOf('/');
      if (slash > 0) {
        folders.merge(d.path().substring(0, slash), 1, Integer::sum);
      }
      if (d.state() == null) {
        continue;
      }
      addWords(found, d.state().title());
      List<Entity> records = d.state().records();
      for (int i = 0; i < records.size() && i < 20 && found.size() < 2_000; i++) {
        addWords(found, records.get(i).title());
      }
      if (found.size() >= 2_000) {
        break;
      }
    }
    words = new ArrayList<>(found);
    folder = folders.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey)
        .orElse(null);
    semantic = index.semantic().available();
  }

  private static void addWords(Set<String> into, String text) {
    if (text == null) {
      return;
    }
    for (String w : text.split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= 4) {
        into.add(w.toLowerCase(Locale.ROOT));
      }
    }
  }

  /** Asks the next question when the clients are quiet; waits {@link #QUIET_MS} when not. */
  private void next() {
    if (stopped) {
      return;
    }
    if (asked >= CALLS) {
      LOG.info("recall warmed up: {} questions in {} ms", asked, (System.nanoTime() - startedAt) / 1_000_000);
      return;
    }
    long last = dispatcher.lastRequestNanos();
    boolean clientRecently = last != 0 && System.nanoTime() - last < QUIET_MS * 1_000_000;
    if (dispatcher.running() > 0 || clientRecently) {
      vertx.setTimer(QUIET_MS, id -> next());
      return;
    }
    dispatcher.handle(message("tools/call", new JsonObject().put("name", "gram_recall").put("arguments", arguments(asked))), channel)
        .onComplete(ar -> {
          asked++;
          // On the next turn: the dispatcher counts this call as running until its own
          // listeners, which come after this one, have run.
          vertx.runOnContext(v -> next());
        });
  }

  /** The arguments of question {@code i}: a form filled with the vault's words, a mode, a folder or none. */
  JsonObject arguments(int i) {
    String form = FORMS[i % FORMS.length];
    Object[] fill = new Object[3];
    for (int k = 0; k < fill.length; k++) {
      fill[k] = words.get(Math.floorMod(i * 31 + k * 7919 + i / FORMS.length, words.size()));
    }
    String query = String.format(Locale.ROOT, form, fill);
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
    if (folder != null && i % 2 == 0) {
      args.put("folder", folder);
    }
    return args;
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
