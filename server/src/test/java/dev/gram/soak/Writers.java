package dev.gram.soak;

import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Agents writing as fast as the server lets them, between two power cuts: each writer patches a
 * random one of a handful of documents against the revision it last saw (a fresh request_id per
 * intent; {@code COMMIT_UNKNOWN} retried with the same request_id and arguments until it
 * settles), and now and then creates a document of its own. Every acknowledgement goes to the
 * {@link Ledger}, every other answer is counted there, tagged with whether LazyFS was still alive.
 * A writer stops when the server stops answering.
 */
final class Writers {
  private static final int RETRY_PAUSE_MS = 20;
  private static final int MAX_RETRIES = 200;

  private final StatelessCalls calls;
  private final List<String> documents;
  private final String folder;
  private final Ledger ledger;
  private final int cut;
  private final int createEvery;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final BooleanSupplier fileSystemUp;
  private volatile boolean stopped;

  /**
   * @param folder where the documents of this cut live, e.g. {@code soak/c007}
   * @param createEvery one operation in this many is a create (0: none)
   * @param fileSystemUp whether LazyFS is alive, asked when an answer arrives
   */
  Writers(StatelessCalls calls, String folder, int documents, Ledger ledger, int cut, int createEvery,
      BooleanSupplier fileSystemUp) {
    this.calls = calls;
    this.fileSystemUp = fileSystemUp;
    this.folder = folder;
    List<String> docs = new ArrayList<>();
    for (int i = 0; i < documents; i++) {
      docs.add(folder + "/d" + i + ".gram");
    }
    this.documents = List.copyOf(docs);
    this.ledger = ledger;
    this.cut = cut;
    this.createEvery = createEvery;
  }

  /**
   * Creates this cut's documents one by one: the first create waits for the server's start-up
   * scan, so the writers' time is spent writing.
   */
  void createDocuments() throws IOException {
    for (String path : documents) {
      create(path, null);
    }
  }

  void start(int count, long seed) {
    for (int w = 0; w < count; w++) {
      int writer = w;
      Thread t = new Thread(() -> run(writer, new Random(seed * 31 + writer)), "soak-writer-" + w);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  /** Stops the writers (call after killing the server, which ends their calls) and waits. */
  void stop() throws InterruptedException {
    stopped = true;
    for (Thread t : threads) {
      t.join(60_000);
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " did not stop within 60 s");
      }
    }
  }

  int acknowledged() {
    return acknowledged.get();
  }

  private void run(int writer, Random random) {
    Map<String, JsonObject> seen = new HashMap<>(); // path -> {rev, hash} as last answered
    try {
      for (int n = 0; !stopped; n++) {
        String name = "c" + cut + "w" + writer + "n" + n;
        if (createEvery > 0 && random.nextInt(createEvery) == 0) {
          create(folder + "/n" + writer + "-" + n + ".gram", "e-" + name);
          continue;
        }
        String path = documents.get(random.nextInt(documents.size()));
        JsonObject doc = seen.get(path);
        if (doc == null) {
          doc = read(path);
          if (doc == null) {
            create(path, null);
            continue;
          }
        }
        JsonObject after = patch(path, doc, "r-" + name, "e-" + name);
        if (after == null) {
          seen.remove(path);
        } else {
          seen.put(path, after);
        }
      }
    } catch (IOException e) {
      // the server was killed, or the writer was stopped: this cut's writing is over
    }
  }

  /** The document's {@code doc} ({@code rev}, {@code hash}), or null when it cannot be read. */
  private JsonObject read(String path) throws IOException {
    JsonObject answer = call("gram_get", new JsonObject().put("path", path).put("entity", "doc"));
    return answer == null ? null : answer.getJsonObject("doc");
  }

  /**
   * One intent, retried with the same request_id while the answer is {@code COMMIT_UNKNOWN};
   * returns the document's new {@code doc} when acknowledged, null otherwise.
   */
  private JsonObject patch(String path, JsonObject doc, String requestId, String recordId) throws IOException {
    JsonObject args = new JsonObject().put("path", path)
        .put("base_revision", doc.getInteger("rev")).put("expected_hash", doc.getString("hash"))
        .put("request_id", requestId)
        .put("operations", new JsonArray().add(new JsonObject().put("op", "add").put("record", record(recordId))));
    ledger.unsettled.add(requestId);
    for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
      StatelessCalls.Reply reply = send("gram_patch", args);
      String code = errorCode(reply);
      if (code == null) {
        JsonObject after = reply.result().getJsonObject("structuredContent").getJsonObject("doc");
        ledger.acknowledged(new Ledger.Patch(path, requestId, recordId, after.getInteger("rev"), cut));
        acknowledged.incrementAndGet();
        return after;
      }
      if (!code.equals("COMMIT_UNKNOWN") || stopped) {
        return null;
      }
      pause();
    }
    return null;
  }

  private void create(String path, String recordId) throws IOException {
    JsonObject content = recordId == null ? new JsonObject()
        : new JsonObject().put("records", new JsonArray().add(record(recordId)));
    JsonObject answer = call("gram_create", new JsonObject().put("path", path).put("base_revision", (Object) null)
        .put("title", "Power cut " + path).put("content", content));
    if (answer != null) {
      ledger.created(new Ledger.Create(path, recordId, cut));
      acknowledged.incrementAndGet();
    }
  }

  private static JsonObject record(String id) {
    return new JsonObject().put("type", "event").put("id", id)
        .put("fields", new JsonObject().put("t", new JsonArray().add("Event " + id)));
  }

  /** The tool's structured content when it succeeded; null (and counted) otherwise. */
  private JsonObject call(String tool, JsonObject args) throws IOException {
    StatelessCalls.Reply reply = send(tool, args);
    return errorCode(reply) == null ? reply.result().getJsonObject("structuredContent") : null;
  }

  /** Sends, and counts the answer when it is not a success. */
  private StatelessCalls.Reply send(String tool, JsonObject args) throws IOException {
    if (stopped) {
      throw new IOException("stopped");
    }
    StatelessCalls.Reply reply = calls.send(tool, args);
    String code = errorCode(reply);
    if (code != null) {
      // Tagged when the answer arrives: a call sent just before LazyFS died fails because it did.
      ledger.answered(fileSystemUp.getAsBoolean() ? Ledger.Phase.FS_UP : Ledger.Phase.FS_GONE, tool, describe(reply));
    }
    return reply;
  }

  /** The error code of an answer that is not a success: the tool's, or JSON-RPC's, or HTTP's. */
  static String errorCode(StatelessCalls.Reply reply) {
    JsonObject result = reply.result();
    if (result == null) {
      return "HTTP " + reply.status();
    }
    if (!Boolean.TRUE.equals(result.getBoolean("isError"))) {
      return null;
    }
    JsonObject error = result.getJsonObject("structuredContent", new JsonObject()).getJsonObject("error");
    return error == null ? "isError" : error.getString("code");
  }

  /** Code and message, shortened, for the tally. */
  static String describe(StatelessCalls.Reply reply) {
    JsonObject result = reply.result();
    String text;
    if (result == null) {
      text = "HTTP " + reply.status() + ": " + reply.body();
    } else {
      JsonObject error = result.getJsonObject("structuredContent", new JsonObject()).getJsonObject("error");
      text = error == null ? "isError: " + result.encode() : error.getString("code") + ": " + error.getString("message");
    }
    // File names differ from answer to answer; the tally is of kinds of answer.
    text = text.replaceAll("[\\w./-]*\\.gram(\\.tmp-[0-9a-f]+)?(?![\\w-])", "<file>")
        .replaceAll("/[^\\s\"',)]+", "<file>");
    return text.length() > 160 ? text.substring(0, 160) + "…" : text;
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY_PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
