package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.testing.Contract;
import dev.gram.testing.McpClients;
import dev.gram.testing.ServerProcess;
import dev.gram.tools.spi.Tool;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an agent built on the official MCP Java SDK sees, over each transport, against the built jar:
 * the handshake, the 15 tools with the contract's schemas, a successful call and a structured
 * argument error. One server process serves Streamable HTTP and SSE; the SDK launches its own
 * process for stdio.
 */
class SdkClientsIT {
  @TempDir static Path dir;

  static ServerProcess server;
  static final Map<String, McpSyncClient> clients = new LinkedHashMap<>();
  static final Queue<String> stdioStderr = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void start() {
    server = ServerProcess.start(dir.resolve("http"));
    clients.put("stdio", McpClients.stdio(dir.resolve("stdio"), "sdk-stdio", stdioStderr));
    clients.put("streamable-http", McpClients.streamableHttp(server, "sdk-http"));
    clients.put("sse", McpClients.sse(server, "sdk-sse"));
    clients.values().forEach(McpSyncClient::initialize);
  }

  @AfterAll
  static void stop() {
    clients.values().forEach(McpSyncClient::closeGracefully);
    if (server != null) {
      assertThat(server.stop()).as("exit status after SIGTERM").isZero();
    }
  }

  static Stream<String> transports() {
    return Stream.of("stdio", "streamable-http", "sse");
  }

  @ParameterizedTest
  @MethodSource("transports")
  void initializeNegotiatesTheClientsNewestVersionAndOffersTools(String transport) {
    McpSyncClient client = clients.get(transport);
    McpSchema.InitializeResult init = client.getCurrentInitializationResult();
    // The SDK's SSE transport speaks only 2024-11-05; the others ask for 2025-11-25.
    String expected = transport.equals("sse") ? "2024-11-05" : "2025-11-25";
    assertThat(init.protocolVersion()).isEqualTo(expected);
    assertThat(init.serverInfo().name()).isEqualTo("gram-mcp");
    assertThat(init.capabilities().tools()).isNotNull();
    assertThat(init.instructions()).contains("gram_profile");
  }

  @ParameterizedTest
  @MethodSource("transports")
  void listsTheFifteenToolsInContractOrderWithTheContractsSchemas(String transport)
      throws IOException {
    List<McpSchema.Tool> tools = clients.get(transport).listTools().tools();
    List<String> contract = Contract.toolNames();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyElementsOf(contract);
    for (McpSchema.Tool tool : tools) {
      JsonObject schema =
          new JsonObject(McpJsonDefaults.getMapper().writeValueAsString(tool.inputSchema()));
      assertThat(schema).as(tool.name() + " inputSchema").isEqualTo(Contract.inputSchema(tool.name()));
      assertThat(tool.description()).as(tool.name() + " description").isNotBlank();
      boolean writer = tool.name().equals("gram_create") || tool.name().equals("gram_patch");
      assertThat(tool.annotations().readOnlyHint()).as(tool.name() + " readOnlyHint").isEqualTo(!writer);
      assertThat(tool.annotations().destructiveHint()).as(tool.name() + " destructiveHint").isFalse();
    }
    McpSchema.Tool patch = tools.stream().filter(t -> t.name().equals("gram_patch")).findFirst().orElseThrow();
    McpSchema.Tool create = tools.stream().filter(t -> t.name().equals("gram_create")).findFirst().orElseThrow();
    assertThat(patch.annotations().idempotentHint()).isTrue();
    assertThat(create.annotations().idempotentHint()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("transports")
  @SuppressWarnings("unchecked")
  void gramCapabilitiesAnswersStructuredContentAndTheSameJsonAsText(String transport) {
    McpSchema.CallToolResult result =
        clients.get(transport).callTool(new McpSchema.CallToolRequest("gram_capabilities", Map.of()));
    assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
    Map<String, Object> structured = (Map<String, Object>) result.structuredContent();
    assertThat(structured).containsEntry("budget_bytes", 16384);
    // The order of the contract's own gram_capabilities answer (tools/list has tools.json's order).
    List<Object> contractOrder = Contract.tools().getJsonObject("gram_capabilities").getJsonObject("exampleResult")
        .getJsonObject("structuredContent").getJsonArray("tools").getList();
    assertThat((List<Object>) structured.get("tools")).containsExactlyElementsOf(contractOrder);
    // The model loads in the background: either state is honest, and "unavailable" says why.
    Map<String, Object> semantic = (Map<String, Object>) structured.get("semantic");
    assertThat(semantic.get("status")).isIn("available", "unavailable");
    if ("unavailable".equals(semantic.get("status"))) {
      assertThat((String) semantic.get("reason")).isNotBlank();
    }
    assertThat(result.content()).hasSize(1);
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    assertThat(new JsonObject(text)).isEqualTo(new JsonObject(structured));
  }

  @ParameterizedTest
  @MethodSource("transports")
  @SuppressWarnings("unchecked")
  void anUnknownArgumentIsAStructuredToolErrorNotAProtocolError(String transport) {
    McpSchema.CallToolResult result =
        clients.get(transport)
            .callTool(new McpSchema.CallToolRequest("gram_capabilities", Map.of("verbose", true)));
    assertThat(result.isError()).isTrue();
    Map<String, Object> error =
        (Map<String, Object>) ((Map<String, Object>) result.structuredContent()).get("error");
    assertThat(error).containsEntry("code", "E_ARGUMENT").containsEntry("message", "Unknown argument verbose");
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    assertThat(new JsonObject(text)).isEqualTo(new JsonObject((Map<String, Object>) result.structuredContent()));
  }

  @ParameterizedTest
  @MethodSource("transports")
  void anUnknownToolIsJsonRpcInvalidParams(String transport) {
    assertThatThrownBy(
            () -> clients.get(transport).callTool(new McpSchema.CallToolRequest("gram_nope", Map.of())))
        .isInstanceOfSatisfying(
            McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
  }

  @ParameterizedTest
  @MethodSource("transports")
  void pingAnswers(String transport) {
    clients.get(transport).ping();
  }
}
