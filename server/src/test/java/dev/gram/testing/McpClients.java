package dev.gram.testing;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Official MCP Java SDK clients (synchronous) for the three transports, built the way an agent
 * would build them. The clients are not yet initialized: call {@link McpSyncClient#initialize()}
 * (any other call initializes implicitly) and close them when done.
 */
public final class McpClients {
  public static final Duration TIMEOUT = Duration.ofSeconds(20);

  private McpClients() {}

  /**
   * The SDK launches the jar itself over stdio ({@code --no-http}, so nothing else binds), with its
   * vault and index under {@code dir}. The server's stderr lines are collected in {@code stderr}
   * when it is not null.
   */
  public static McpSyncClient stdio(Path dir, String clientName, Queue<String> stderr,
      String... extraArgs) {
    try {
      Path vault = Files.createDirectories(dir.resolve("vault"));
      Path index = Files.createDirectories(dir.resolve("index"));
      String[] args = new String[extraArgs.length + 1];
      args[0] = "--no-http";
      System.arraycopy(extraArgs, 0, args, 1, extraArgs.length);
      List<String> cmd = ServerProcess.command(vault, index, args);
      ServerParameters params =
          ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
      StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
      Queue<String> sink = stderr == null ? new ConcurrentLinkedQueue<>() : stderr;
      transport.setStdErrorHandler(sink::add);
      return build(transport, clientName);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Streamable HTTP at the server's {@code /mcp}. */
  public static McpSyncClient streamableHttp(ServerProcess server, String clientName) {
    return build(
        HttpClientStreamableHttpTransport.builder(server.origin())
            .endpoint("/mcp")
            .connectTimeout(TIMEOUT)
            .build(),
        clientName);
  }

  /** The legacy HTTP+SSE transport at the server's {@code /sse}. */
  public static McpSyncClient sse(ServerProcess server, String clientName) {
    return build(
        HttpClientSseClientTransport.builder(server.origin())
            .sseEndpoint("/sse")
            .connectTimeout(TIMEOUT)
            .build(),
        clientName);
  }

  /**
   * A client that hears resource updates: the SDK reads each updated resource and hands its
   * contents to {@code updates}.
   */
  public static McpSyncClient subscriber(
      McpClientTransport transport,
      String clientName,
      java.util.function.Consumer<List<McpSchema.ResourceContents>> updates) {
    return McpClient.sync(transport)
        .clientInfo(new McpSchema.Implementation(clientName, "1.0.0"))
        .requestTimeout(TIMEOUT)
        .initializationTimeout(TIMEOUT)
        .resourcesUpdateConsumer(updates)
        .build();
  }

  /** Streamable HTTP transport at {@code origin}'s {@code /mcp}. */
  public static McpClientTransport streamableHttpTransport(String origin) {
    return HttpClientStreamableHttpTransport.builder(origin)
        .endpoint("/mcp")
        .connectTimeout(TIMEOUT)
        .build();
  }

  /** Legacy HTTP+SSE transport at {@code origin}'s {@code /sse}. */
  public static McpClientTransport sseTransport(String origin) {
    return HttpClientSseClientTransport.builder(origin)
        .sseEndpoint("/sse")
        .connectTimeout(TIMEOUT)
        .build();
  }

  /**
   * A stdio transport that launches the jar with HTTP on as well (a free port), so a second client
   * can reach the same server; the server's stderr lines go to {@code stderr}, where it names its
   * URL.
   */
  public static McpClientTransport stdioWithHttp(Path dir, Queue<String> stderr) {
    try {
      Path vault = Files.createDirectories(dir.resolve("vault"));
      Path index = Files.createDirectories(dir.resolve("index"));
      List<String> cmd =
          ServerProcess.command(vault, index, "--port", "0", "--no-welcome", "--no-semantic");
      ServerParameters params =
          ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
      StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
      transport.setStdErrorHandler(stderr::add);
      return transport;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static McpSyncClient build(McpClientTransport transport, String clientName) {
    return McpClient.sync(transport)
        .clientInfo(new McpSchema.Implementation(clientName, "1.0.0"))
        .requestTimeout(TIMEOUT)
        .initializationTimeout(TIMEOUT)
        .build();
  }
}
