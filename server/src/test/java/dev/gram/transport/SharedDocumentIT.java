package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Contract;
import dev.gram.testing.McpClients;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One process, one vault: a document created over stdio is patched over Streamable HTTP and the
 * patch is read back at once over both. Requests are the contract's examples (gram_create,
 * gram_patch, gram_get), with the revision and hash taken from the previous answer.
 */
class SharedDocumentIT {
  @TempDir Path dir;

  @Test
  @SuppressWarnings("unchecked")
  void aWriteThroughOneTransportIsVisibleThroughTheOtherAtOnce() {
    try (ServerProcess server = ServerProcess.start(dir)) {
      StdioClient stdio = server.stdio();
      stdio.initialize("agent-on-stdio", "2025-11-25");
      McpSyncClient http = McpClients.streamableHttp(server, "agent-on-http");
      try {
        http.initialize();

        JsonObject create = Contract.exampleRequest("gram_create");
        JsonObject created = call(stdio, "gram_create", create);
        JsonObject doc = created.getJsonObject("doc");
        assertThat(doc.getString("path")).isEqualTo(create.getString("path"));
        assertThat(doc.getInteger("rev")).isZero();

        JsonObject patch = Contract.exampleRequest("gram_patch")
            .put("base_revision", doc.getInteger("rev"))
            .put("expected_hash", doc.getString("hash"));
        McpSchema.CallToolResult patched = http.callTool(new McpSchema.CallToolRequest("gram_patch", patch.getMap()));
        assertThat(patched.isError()).isNotEqualTo(Boolean.TRUE);
        JsonObject patchedDoc = new JsonObject((Map<String, Object>) patched.structuredContent()).getJsonObject("doc");
        assertThat(patchedDoc.getInteger("rev")).isEqualTo(1);

        JsonObject get = Contract.exampleRequest("gram_get");
        JsonObject viaStdio = call(stdio, "gram_get", get);
        assertThat(viaStdio.getJsonObject("doc").getInteger("rev")).isEqualTo(1);
        assertThat(viaStdio.getJsonObject("entity").getJsonObject("fields").getJsonArray("d").getString(0))
            .isEqualTo("Description updated by a real CAS patch.");

        McpSchema.CallToolResult viaHttp = http.callTool(new McpSchema.CallToolRequest("gram_get", get.getMap()));
        assertThat(new JsonObject((Map<String, Object>) viaHttp.structuredContent())).isEqualTo(viaStdio);
      } finally {
        http.closeGracefully();
      }
      assertThat(server.stop()).isZero();
    }
  }

  private static JsonObject call(StdioClient stdio, String tool, JsonObject arguments) {
    JsonObject answer = stdio.request("tools/call", new JsonObject().put("name", tool).put("arguments", arguments));
    JsonObject result = answer.getJsonObject("result");
    assertThat(result.getBoolean("isError", false)).as(tool + " answered " + result.encode()).isFalse();
    return result.getJsonObject("structuredContent");
  }
}
