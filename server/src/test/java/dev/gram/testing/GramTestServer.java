package dev.gram.testing;

import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import dev.gram.server.Services;
import dev.gram.tools.spi.Tool;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The whole server in this JVM on a real vault folder, called through the official MCP Java SDK
 * client over Streamable HTTP: tests call tools by name with JSON arguments and get exactly what a
 * client gets. In-process so that a test class can start many servers quickly; tests that need a
 * separate process (crashes, stdio, signals) use {@link ServerProcess}.
 */
public final class GramTestServer implements AutoCloseable {
  private final GramServer server;
  private final McpSyncClient client;

  private GramTestServer(GramServer server, McpSyncClient client) {
    this.server = server;
    this.client = client;
  }

  /**
   * Starts a server on {@code vault} (its index beside it, on the real disk; the vault may be on a
   * {@code testing.disk.SimulatedDisk}). Semantic search is off unless
   * {@code extraArgs} holds {@code --semantic}: loading the model and embedding every document
   * costs seconds of CPU that most tests do not need.
   */
  public static GramTestServer start(Path vault, String... extraArgs) {
    return start(vault, java.time.Clock.systemUTC(), 30, extraArgs);
  }

  /** As {@link #start(Path, String...)}, waiting up to {@code scanSeconds} for a large vault's scan. */
  public static GramTestServer start(Path vault, int scanSeconds, String... extraArgs) {
    return start(vault, java.time.Clock.systemUTC(), scanSeconds, extraArgs);
  }

  /** As {@link #start(Path, String...)}, with the clock revisions are recorded by. */
  public static GramTestServer start(Path vault, java.time.Clock clock, String... extraArgs) {
    return start(vault, clock, 30, extraArgs);
  }

  private static GramTestServer start(Path vault, java.time.Clock clock, int scanSeconds, String... extraArgs) {
    try {
      String[] args = new String[extraArgs.length + 9];
      args[0] = "--vault";
      args[1] = vault.toString();
      args[2] = "--index";
      args[3] = vault.resolveSibling(vault.getFileName() + "-index").toString();
      args[4] = "--no-stdio";
      args[5] = "--no-welcome";
      args[6] = "--port";
      args[7] = "0";
      args[8] = "--no-semantic";
      System.arraycopy(extraArgs, 0, args, 9, extraArgs.length);
      ServerConfig config = ServerConfig.parse(args, Map.of());
      if (vault.getFileSystem() != java.nio.file.FileSystems.getDefault()) {
        config = config.withVaultOn(vault.getFileSystem()); // a simulated disk
      }
      GramServer server =
          GramServer.start(config, InputStream.nullInputStream(), new ByteArrayOutputStream(), clock)
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      server.services().vault().scanned().toCompletionStage().toCompletableFuture().get(scanSeconds, TimeUnit.SECONDS);
      McpSyncClient client =
          McpClients.build(
              HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.httpPort())
                  .endpoint("/mcp")
                  .connectTimeout(McpClients.TIMEOUT)
                  .build(),
              "test-agent");
      client.initialize();
      return new GramTestServer(server, client);
    } catch (Exception e) {
      throw new AssertionError("could not start the server: " + e, e);
    }
  }

  public Services services() {
    return server.services();
  }

  /** The server itself, for a test of its own parts. */
  public GramServer server() {
    return server;
  }

  /** The dispatcher every transport of this server shares. */
  public dev.gram.protocol.McpDispatcher dispatcher() {
    return server.dispatcher();
  }

  public int httpPort() {
    return server.httpPort();
  }

  /** Calls a tool as an MCP client does and returns what the client got. */
  public ToolResult call(String tool, JsonObject arguments) {
    // Plain maps and lists all the way down, as a client's JSON library would send them.
    @SuppressWarnings("unchecked")
    Map<String, Object> plain = io.vertx.core.json.Json.decodeValue(arguments.encode(), Map.class);
    McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, plain));
    Object structured = r.structuredContent();
    JsonObject json;
    if (structured instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) m;
      // Through the text, as the server's codec reads JSON (Vert.x's streaming codec maps no objects).
      json = new JsonObject(io.vertx.core.json.Json.encode(map));
    } else {
      // Fall back on the text item, which holds the same JSON.
      json = new JsonObject(((McpSchema.TextContent) r.content().get(0)).text());
    }
    return new ToolResult(json, Boolean.TRUE.equals(r.isError()));
  }

  public ToolResult call(String tool, String argumentsJson) {
    return call(tool, new JsonObject(argumentsJson));
  }

  public List<String> toolNames() {
    return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
  }

  @Override
  public void close() {
    try {
      client.closeGracefully();
    } catch (RuntimeException e) {
      // the server may already be gone
    }
    try {
      server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
