package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw newline-delimited JSON-RPC on the jar's stdin/stdout: both eras in one process, malformed and
 * oversized input, and that stdout never carries anything but protocol messages.
 */
class StdioIT {
  @TempDir static Path dir;
  static ServerProcess server;
  static StdioClient stdio;

  @BeforeAll
  static void start() {
    server = ServerProcess.start(dir, "--no-http", "--max-body-bytes", "2048");
    stdio = server.stdio();
  }

  @AfterAll
  static void stop() {
    stdio.closeInput();
    assertThat(server.waitForExit(Duration.ofSeconds(20))).isZero();
    for (String line : stdio.lines()) {
      JsonObject msg = new JsonObject(line);
      assertThat(msg.getString("jsonrpc")).as("every stdout line is JSON-RPC: " + line).isEqualTo("2.0");
    }
  }

  @Test
  void modernRequestsNeedNoHandshakeAndCarryResultType() {
    JsonObject discover = stdio.request("server/discover", StdioClient.modern("stdio-modern"));
    assertThat(discover.getJsonObject("result").getString("resultType")).isEqualTo("complete");
    assertThat(discover.getJsonObject("result").getJsonArray("supportedVersions").getList()).contains("2026-07-28");

    JsonObject call = stdio.request("tools/call",
        StdioClient.modern("stdio-modern").put("name", "gram_capabilities").put("arguments", new JsonObject()));
    JsonObject result = call.getJsonObject("result");
    assertThat(result.getString("resultType")).isEqualTo("complete");
    assertThat(result.getJsonObject("structuredContent").getInteger("budget_bytes")).isEqualTo(16384);
  }

  @Test
  void legacyHandshakeThenCallsWithoutMeta() {
    JsonObject before = stdio.request("tools/list", new JsonObject());
    // Whether the handshake already ran in this process depends on test order; both are defined.
    if (before.containsKey("error")) {
      assertThat(before.getJsonObject("error").getInteger("code")).isEqualTo(-32602);
      JsonObject init = stdio.initialize("stdio-legacy", "2025-03-26");
      assertThat(init.getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-03-26");
    }
    JsonObject list = stdio.request("tools/list", new JsonObject());
    assertThat(list.getJsonObject("result").getJsonArray("tools")).hasSize(15);
    assertThat(list.getJsonObject("result").containsKey("resultType")).isFalse();

    JsonObject again = stdio.request("initialize", new JsonObject().put("protocolVersion", "2025-03-26"));
    assertThat(again.getJsonObject("error").getInteger("code")).isEqualTo(-32600);

    assertThat(stdio.request("ping", null).getJsonObject("result")).isEqualTo(new JsonObject());
  }

  @Test
  void malformedLinesGetErrorsAndTheStreamGoesOn() {
    stdio.raw("{this is not json");
    JsonObject parse = stdio.nextNotification(Duration.ofSeconds(10));
    assertThat(parse.getJsonObject("error").getInteger("code")).isEqualTo(-32700);
    assertThat(parse.containsKey("id")).isTrue();
    assertThat(parse.getValue("id")).isNull();

    stdio.raw("{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"tools/list\",\"params\":{\"pad\":\"" + "x".repeat(5000) + "\"}}");
    JsonObject big = stdio.nextNotification(Duration.ofSeconds(10));
    assertThat(big.getJsonObject("error").getInteger("code")).isEqualTo(-32600);
    assertThat(big.getJsonObject("error").getString("message")).contains("2048");

    stdio.raw("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    JsonObject batch = stdio.nextNotification(Duration.ofSeconds(10));
    assertThat(batch.getJsonObject("error").getInteger("code")).isEqualTo(-32600);

    JsonObject ok = stdio.request("server/discover", StdioClient.modern(null));
    assertThat(ok.getJsonObject("result")).isNotNull();
  }

  @Test
  void protocolFaultsAreJsonRpcErrors() {
    JsonObject unknownTool = stdio.request("tools/call", StdioClient.modern("x").put("name", "gram_nope"));
    assertThat(unknownTool.getJsonObject("error").getInteger("code")).isEqualTo(-32602);

    JsonObject unknownMethod = stdio.request("completion/complete", StdioClient.modern("x"));
    assertThat(unknownMethod.getJsonObject("error").getInteger("code")).isEqualTo(-32601);

    JsonObject badArgs = stdio.request("tools/call", StdioClient.modern("x").put("name", "gram_get").put("arguments", "path"));
    assertThat(badArgs.getJsonObject("error").getInteger("code")).isEqualTo(-32602);

    JsonObject version = stdio.request("tools/list", new JsonObject().put("_meta", new JsonObject()
        .put("io.modelcontextprotocol/protocolVersion", "2030-01-01")
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject())));
    assertThat(version.getJsonObject("error").getInteger("code")).isEqualTo(-32022);
    assertThat(version.getJsonObject("error").getJsonObject("data").getJsonArray("supported").getList()).contains("2026-07-28");
  }

  @Test
  void argumentErrorsUseTheContractsMessages() {
    JsonObject missing = stdio.request("tools/call", StdioClient.modern("x").put("name", "gram_get")
        .put("arguments", new JsonObject().put("path", "p.gram")));
    JsonObject error = missing.getJsonObject("result").getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("E_ARGUMENT");
    assertThat(error.getString("message")).isEqualTo("Missing argument entity");

    JsonObject typed = stdio.request("tools/call", StdioClient.modern("x").put("name", "gram_get")
        .put("arguments", new JsonObject().put("path", "p.gram").put("entity", "d1").put("revision", -1)));
    JsonObject typedError = typed.getJsonObject("result").getJsonObject("structuredContent").getJsonObject("error");
    assertThat(typedError.getString("code")).isEqualTo("E_ARGUMENT");
    assertThat(typedError.getString("message")).startsWith("Invalid argument revision");

    // Valid arguments reach the tool, whose own checks answer: no such document here.
    JsonObject absent = stdio.request("tools/call", StdioClient.modern("x").put("name", "gram_get")
        .put("arguments", new JsonObject().put("path", "p/absent.gram").put("entity", "d1")));
    JsonObject result = absent.getJsonObject("result");
    assertThat(result.getBoolean("isError")).isTrue();
    assertThat(result.getJsonObject("structuredContent").getJsonObject("error").getString("message"))
        .isEqualTo("Document not found: p/absent.gram");
  }
}
