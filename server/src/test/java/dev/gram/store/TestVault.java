package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.gram.edit.Creation;
import dev.gram.edit.PatchOps;
import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A real vault on a real folder, driven the way the tools drive it. */
final class TestVault implements AutoCloseable {
  final Path dir;
  final Vault vault;

  private TestVault(Path dir, Vault vault) {
    this.dir = dir;
    this.vault = vault;
  }

  static TestVault open(Path dir, VaultPath.MountPoint... mounts) {
    Vault v = new Vault(new PathResolver(dir, List.of(mounts)), new PatchOps(), Clock.systemUTC(), 8);
    await(v.start());
    return new TestVault(dir, v);
  }

  /** A vault whose checkpointer runs only when the test asks ({@code vault.checkpointNow()}) or at close. */
  static TestVault openWithoutTimedCheckpoints(Path dir) {
    Vault v = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 8,
        new Vault.Durability(Vault.LogMode.WRITE, java.time.Duration.ofHours(1)));
    await(v.start());
    return new TestVault(dir, v);
  }

  /** A vault whose checkpointer runs a round every {@code lag}. */
  static TestVault openWithLag(Path dir, java.time.Duration lag) {
    Vault v = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 8,
        new Vault.Durability(Vault.LogMode.WRITE, lag));
    await(v.start());
    return new TestVault(dir, v);
  }

  /** A cluster node's vault (its log under .gram-wal/nodes/{@code node}), without timed checkpoints. */
  static TestVault openNode(Path dir, String node) {
    Vault v = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 8,
        new Vault.Durability(Vault.LogMode.WRITE, java.time.Duration.ofHours(1), node));
    await(v.start());
    return new TestVault(dir, v);
  }

  /** The files a vault at {@code dir} set aside for a person to read (none when the folder is absent). */
  static List<Path> setAsideIn(Path dir) throws java.io.IOException {
    Path folder = dir.resolve(WriteAheadLog.FOLDER).resolve(SetAsideFiles.FOLDER);
    if (!java.nio.file.Files.isDirectory(folder)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(folder)) {
      return files.toList();
    }
  }

  static <T> T await(Future<T> f) {
    return dev.gram.testing.StoreWrites.await(f);
  }

  CommitReceipt create(String path, String title, Object content) {
    VaultPath vp = vault.paths().writableDocument(path);
    Creation.Result r = Creation.build(Creation.newDocumentId(), title, content, id -> vault.pathOfDocumentId(id) != null);
    return await(vault.submit(new WriteCommand.Create(vp, r.state(), "test-agent", null, r.created(), r.diagnostics())));
  }

  Future<CommitReceipt> patchAsync(String path, int base, String hash, String requestId, JsonArray ops, String by) {
    VaultPath vp = vault.paths().writableDocument(path);
    String digest = RequestDigest.of(vp.path(), base, hash, ops, null);
    return vault.submit(new WriteCommand.Patch(vp, base, hash, requestId, digest, ops, by, null));
  }

  CommitReceipt patch(String path, int base, String hash, String requestId, JsonArray ops) {
    return await(patchAsync(path, base, hash, requestId, ops, "test-agent"));
  }

  GramException patchFails(String path, int base, String hash, String requestId, JsonArray ops) {
    try {
      CommitReceipt r = patch(path, base, hash, requestId, ops);
      return fail("expected a failure, got " + r);
    } catch (GramException e) {
      return e;
    }
  }

  DocSnapshot read(String path) {
    return await(vault.read(vault.paths().document(path)));
  }

  static JsonArray ops(JsonObject... ops) {
    JsonArray a = new JsonArray();
    for (JsonObject o : ops) {
      a.add(o);
    }
    return a;
  }

  static JsonObject set(String entity, String key, String value) {
    return new JsonObject().put("op", "set").put("entity", entity).put("key", key).put("value", value);
  }

  static JsonObject add(String type, String id, String title) {
    return new JsonObject()
        .put("op", "add")
        .put("record", new JsonObject().put("type", type).put("id", id)
            .put("fields", new JsonObject().put("t", new JsonArray().add(title))));
  }

  void assertChainValid(String path) {
    DocSnapshot s = read(path);
    assertThat(s.failure()).isNull();
    assertThat(s.history()).isNotNull();
  }

  @Override
  public void close() {
    await(vault.close());
  }
}
