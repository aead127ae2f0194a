package dev.gram.index;

import dev.gram.edit.Creation;
import dev.gram.store.CommitReceipt;
import dev.gram.store.RequestDigest;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import dev.gram.testing.GramTestServer;
import dev.gram.testing.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Writes test documents. Until gram_create and gram_patch are tools, writes go through the store
 * exactly as those tools will send them; recall itself is always asked through the server.
 */
final class Fixtures {
  private Fixtures() {}

  static CommitReceipt create(GramTestServer server, String path, String title, Object content) {
    Vault vault = server.services().vault();
    VaultPath vp = vault.paths().writableDocument(path);
    Creation.Result r =
        Creation.build(Creation.newDocumentId(), title, content, id -> vault.pathOfDocumentId(id) != null);
    return await(vault.submit(new WriteCommand.Create(vp, r.state(), "test-agent", null, r.created(), r.diagnostics())));
  }

  static CommitReceipt patch(GramTestServer server, String path, int base, String hash, String requestId, JsonArray ops) {
    Vault vault = server.services().vault();
    VaultPath vp = vault.paths().writableDocument(path);
    String digest = RequestDigest.of(vp.path(), base, hash, ops, null);
    return await(vault.submit(new WriteCommand.Patch(vp, base, hash, requestId, digest, ops, "test-agent", null)));
  }

  static JsonObject record(String type, String id, String title, String... keyValues) {
    JsonObject fields = new JsonObject().put("t", new JsonArray().add(title));
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      JsonArray values = fields.getJsonArray(keyValues[i]);
      if (values == null) {
        values = new JsonArray();
        fields.put(keyValues[i], values);
      }
      values.add(keyValues[i + 1]);
    }
    return new JsonObject().put("type", type).put("id", id).put("fields", fields);
  }

  static JsonObject add(JsonObject record) {
    return new JsonObject().put("op", "add").put("record", record);
  }

  static JsonObject set(String entity, String key, String value) {
    return new JsonObject().put("op", "set").put("entity", entity).put("key", key).put("value", value);
  }

  static void write(Path vault, String path, String text) {
    try {
      Path f = vault.resolve(path);
      Files.createDirectories(f.getParent());
      Files.writeString(f, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static <T> T await(Future<T> f) {
    return dev.gram.testing.StoreWrites.await(f);
  }

  /** Calls recall until {@code done} holds for its answer, or fails after {@code maxMs}. */
  static JsonObject recallUntil(
      GramTestServer server, JsonObject args, java.util.function.Predicate<JsonObject> done, long maxMs) {
    long end = System.currentTimeMillis() + maxMs;
    JsonObject last = null;
    while (System.currentTimeMillis() < end) {
      ToolResult r = server.call("gram_recall", args);
      last = r.ok();
      if (done.test(last)) {
        return last;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("recall never satisfied the condition; last answer: " + (last == null ? null : last.encode()));
  }

  /** Waits until recall no longer says it is partial (the index caught up with the vault). */
  static void awaitIndexed(GramTestServer server) {
    recallUntil(server, new JsonObject().put("query", "anything").put("mode", "keyword"),
        a -> !a.containsKey("partial"), 30_000);
  }

  /** Waits until semantic recall works and every unit has its vector. */
  static void awaitEmbedded(GramTestServer server) {
    recallUntil(server, new JsonObject().put("query", "anything").put("mode", "semantic"),
        // No unit waits for its vector, and the vectors are searchable: the embedder's writes are
        // neither live nor rebuild ones, so a recall can hear they are done a refresh (at most
        // half a second) before it can search them (seen once: every semantic query of
        // RecallQualityTest found nothing). Nearest neighbours always answer when vectors exist.
        a -> !a.containsKey("partial") && !a.containsKey("fallback") && !a.containsKey("unembeddedChunks")
            && a.getJsonArray("hits") != null && !a.getJsonArray("hits").isEmpty(), 120_000);
  }
}
