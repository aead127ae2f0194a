package dev.gram.testing;

import dev.gram.edit.Creation;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocSnapshot;
import dev.gram.store.RequestDigest;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Writes fixtures through the real store — the same commands gram_create and gram_patch submit —
 * so documents carry real histories ({@code by}, {@code effective_at}, request ids, digests).
 * Also writes files behind the store's back, as another program would, and makes the store read
 * them again.
 */
public final class StoreWrites {
  private final Vault vault;

  public StoreWrites(Vault vault) {
    this.vault = vault;
  }

  public static StoreWrites on(GramTestServer server) {
    return new StoreWrites(server.services().vault());
  }

  public Vault vault() {
    return vault;
  }

  public static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new AssertionError(e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Revision 0 of a new document, with a random document id. */
  public CommitReceipt create(String path, String title, Object content) {
    return create(path, title, content, "test-agent", null, Creation.newDocumentId());
  }

  /** Revision 0 of a new document; {@code content} is md text or {text, records, fields, blocks}. */
  public CommitReceipt create(String path, String title, Object content, String by, String effectiveAt, String documentId) {
    return await(createAsync(path, title, content, by, effectiveAt, documentId));
  }

  public Future<CommitReceipt> createAsync(
      String path, String title, Object content, String by, String effectiveAt, String documentId) {
    VaultPath vp = vault.paths().writableDocument(path);
    Creation.Result r = Creation.build(documentId, title, content, id -> vault.pathOfDocumentId(id) != null);
    return vault.submit(new WriteCommand.Create(vp, r.state(), by, effectiveAt, r.created(), r.diagnostics()));
  }

  /** A patch against the document's current revision and hash. */
  public CommitReceipt patch(String path, JsonArray ops) {
    return patch(path, ops, "test-agent", null, null);
  }

  /** A patch against the current revision; {@code requestId} null makes a fresh one. */
  public CommitReceipt patch(String path, JsonArray ops, String by, String effectiveAt, String requestId) {
    DocSnapshot s = read(path);
    return patchAt(path, s.rev(), s.shortHash(), ops, by, effectiveAt, requestId);
  }

  public CommitReceipt patchAt(
      String path, int base, String hash, JsonArray ops, String by, String effectiveAt, String requestId) {
    VaultPath vp = vault.paths().writableDocument(path);
    String id = requestId == null ? "req-" + java.util.UUID.randomUUID() : requestId;
    String digest = RequestDigest.of(vp.path(), base, hash, ops, effectiveAt);
    return await(vault.submit(new WriteCommand.Patch(vp, base, hash, id, digest, ops, by, effectiveAt)));
  }

  public DocSnapshot read(String path) {
    return await(vault.read(vault.paths().document(path)));
  }

  /** Writes a file as another program would, and has the store read it again. */
  public DocSnapshot writeFile(String path, String text) {
    VaultPath vp = vault.paths().document(path);
    try {
      Files.createDirectories(vp.file().getParent());
      Path tmp = vp.file().resolveSibling(".tmp-" + vp.file().getFileName());
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, vp.file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return await(vault.refresh(vp));
  }

  /** Deletes a document file as another program would, and has the store notice. */
  public void deleteFile(String path) {
    VaultPath vp = vault.paths().document(path);
    try {
      Files.deleteIfExists(vp.file());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    await(vault.refresh(vp));
  }

  /** The document's file, after a checkpoint has written into it what the log holds. */
  public String fileText(String path) {
    vault.checkpointNow();
    try {
      return Files.readString(vault.paths().document(path).file(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ operation builders

  public static JsonArray ops(JsonObject... ops) {
    JsonArray a = new JsonArray();
    for (JsonObject o : ops) {
      a.add(o);
    }
    return a;
  }

  public static JsonObject set(String entity, String key, Object value) {
    return new JsonObject().put("op", "set").put("entity", entity).put("key", key).put("value", value);
  }

  public static JsonObject del(String entity) {
    return new JsonObject().put("op", "del").put("entity", entity);
  }

  /** An add of {@code record} ({type, id, fields, links?}) placed at the end of the body. */
  public static JsonObject add(JsonObject record) {
    return new JsonObject().put("op", "add").put("record", record).put("place", "end");
  }

  public static JsonObject record(String type, String id, String title, Object... keyValues) {
    JsonObject fields = new JsonObject().put("t", new JsonArray().add(title));
    JsonArray links = new JsonArray();
    for (int i = 0; i < keyValues.length; i += 2) {
      String k = (String) keyValues[i];
      Object v = keyValues[i + 1];
      if (k.startsWith("->")) {
        links.add(new JsonArray().add(k.substring(2)).add(v));
      } else {
        JsonArray values = fields.getJsonArray(k, new JsonArray());
        values.add(v);
        fields.put(k, values);
      }
    }
    JsonObject r = new JsonObject().put("type", type).put("id", id).put("fields", fields);
    if (!links.isEmpty()) {
      r.put("links", links);
    }
    return r;
  }

  public static JsonObject rel(String id, String from, String predicate, String to) {
    return new JsonObject().put("op", "rel").put("id", id).put("from", from).put("predicate", predicate).put("to", to);
  }
}
