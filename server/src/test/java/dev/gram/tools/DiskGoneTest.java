package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import dev.gram.testing.ToolResult;
import dev.gram.testing.disk.SimulatedDisk;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault's file system goes away under a running server (a FUSE mount dies, a disk is pulled,
 * the power is cut under the process): a client over MCP gets the contract's E_STORAGE or
 * COMMIT_UNKNOWN for every write, never E_INTERNAL, and reads of loaded documents go on from memory.
 */
class DiskGoneTest {
  @TempDir Path tmp;

  @Test
  void writesAnswerEStorageOrCommitUnknownAndReadsGoOnWhenTheDiskIsGone() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    SimulatedDisk disk = SimulatedDisk.over(vault);
    try (GramTestServer gram = GramTestServer.start(disk.root())) {
      JsonObject created = gram.call("gram_create", new JsonObject().put("path", "p/a.gram")
          .put("base_revision", (Object) null).put("title", "A").put("content", "Before the cut.")).ok();
      JsonObject doc = created.getJsonObject("doc");
      disk.cutNow();

      ToolResult patch = gram.call("gram_patch", new JsonObject().put("path", "p/a.gram")
          .put("base_revision", doc.getInteger("rev")).put("expected_hash", doc.getString("hash"))
          .put("request_id", "after-the-cut").put("operations", new JsonArray().add(new JsonObject()
              .put("op", "set").put("entity", "doc").put("key", "d").put("value", "lost"))));
      assertThat(patch.code()).isIn("E_STORAGE", "COMMIT_UNKNOWN");
      assertThat(patch.message()).matches("(Storage commit failed|Replacement published but durability is uncertain): .+");

      ToolResult create = gram.call("gram_create", new JsonObject().put("path", "q/b.gram")
          .put("base_revision", (Object) null).put("title", "B").put("content", ""));
      assertThat(create.code()).isIn("E_STORAGE", "COMMIT_UNKNOWN");
      // Under a folder that exists: the path check reads the disk, and a disk that cannot answer
      // is no proof that the path leads outside the vault (E_PATH would send the agent astray).
      ToolResult nested = gram.call("gram_create", new JsonObject().put("path", "p/sub/c.gram")
          .put("base_revision", (Object) null).put("title", "C").put("content", ""));
      assertThat(nested.code()).as(nested.message()).isIn("E_STORAGE", "COMMIT_UNKNOWN");

      JsonObject read = gram.call("gram_get", new JsonObject().put("path", "p/a.gram").put("entity", "doc")).ok();
      assertThat(read.getJsonObject("doc").getInteger("rev")).isEqualTo(doc.getInteger("rev"));
      JsonObject outline = gram.call("gram_read", new JsonObject().put("path", "p/a.gram")).ok();
      assertThat(outline.getString("title")).isEqualTo("A");
    }
  }
}
