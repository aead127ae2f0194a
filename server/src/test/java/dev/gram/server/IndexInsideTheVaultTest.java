package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import dev.gram.testing.StoreWrites;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default index folder, {@code <vault>/.gram-index}, is not part of the vault: no listing shows
 * it, no path can name it, and the files the index writes there are never read as documents.
 */
class IndexInsideTheVaultTest {
  @TempDir Path dir;

  @Test
  void theIndexFolderIsInvisibleToEveryListingAndEveryPath() throws Exception {
    Path vault = dir.resolve("vault");
    Path index = ServeOptions.defaultIndex(vault);
    try (GramTestServer server = GramTestServer.start(vault, "--index", index.toString())) {
      StoreWrites store = StoreWrites.on(server);
      store.create("work/plan.gram", "Plan", new JsonObject());
      // The index opens after the handshake or at the first recall; this one waits for it.
      assertThat(server.call("gram_recall", new JsonObject().put("query", "plan")).isError()).isFalse();
      // A file that looks like a document inside the index folder is still not one.
      Files.writeString(index.resolve("stray.gram"), "@gram 2\ndoc d_00000000000000000000000000000001\nt Stray\n");
      assertThat(Files.isDirectory(index)).isTrue();

      String projects = server.call("gram_projects", new JsonObject()).ok().encode();
      String list = server.call("gram_list", new JsonObject()).ok().encode();
      String brief = server.call("gram_brief", new JsonObject()).ok().encode();
      for (String answer : new String[] {projects, list, brief}) {
        assertThat(answer).contains("work").doesNotContain(".gram-index").doesNotContain("stray");
      }
      for (String path : new String[] {".gram-index/stray.gram", "work/../.gram-index/stray.gram"}) {
        ToolResult get = server.call("gram_get", new JsonObject().put("path", path).put("entity", "doc"));
        assertThat(get.isError()).as(path).isTrue();
        assertThat(get.code()).isEqualTo("E_PATH");
      }
      ToolResult create = server.call("gram_create", new JsonObject().put("path", ".gram-index/x.gram")
          .put("base_revision", (Object) null).put("title", "No").put("content", ""));
      assertThat(create.code()).isEqualTo("E_PATH");
      assertThat(server.services().vault().documents()).extracting(s -> s.path()).containsExactly("work/plan.gram");
    }
  }
}
