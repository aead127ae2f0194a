package dev.gram.testing;

import dev.gram.server.ServerConfig;
import dev.gram.server.Services;
import dev.gram.tools.CallContext;
import dev.gram.tools.Tool;
import dev.gram.tools.ToolException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The whole server behind the transports, in this JVM, on a real vault folder: tests call tools
 * by name with JSON arguments and get what a client would get.
 *
 * <p>Calls go through {@link dev.gram.tools.ToolRegistry} directly for now; once the protocol
 * layer is in place they go through a real MCP client over a real transport, and the tests written
 * against this class do not change.
 */
public final class GramTestServer implements AutoCloseable {
  private final Vertx vertx;
  private final Services services;
  private final String agent;

  private GramTestServer(Vertx vertx, Services services, String agent) {
    this.vertx = vertx;
    this.services = services;
    this.agent = agent;
  }

  public static GramTestServer start(Path vault, String... extraArgs) {
    try {
      String[] args = new String[extraArgs.length + 6];
      args[0] = "--vault";
      args[1] = vault.toString();
      args[2] = "--index";
      args[3] = vault.resolveSibling(vault.getFileName() + "-index").toString();
      args[4] = "--no-stdio";
      args[5] = "--no-welcome";
      System.arraycopy(extraArgs, 0, args, 6, extraArgs.length);
      ServerConfig config = ServerConfig.parse(args, java.util.Map.of());
      Vertx vertx = Vertx.vertx();
      Services services = Services.start(vertx, config, Clock.systemUTC());
      services.vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return new GramTestServer(vertx, services, "test-agent");
    } catch (Exception e) {
      throw new AssertionError("could not start the server: " + e, e);
    }
  }

  public Services services() {
    return services;
  }

  public ToolResult call(String tool, JsonObject arguments) {
    Tool t = services.tools().get(tool);
    if (t == null) {
      throw new AssertionError("no tool " + tool);
    }
    try {
      t.precheck(arguments);
      // Tools run on an event loop, as they do behind a transport.
      io.vertx.core.Promise<JsonObject> promise = io.vertx.core.Promise.promise();
      vertx.getOrCreateContext()
          .runOnContext(v -> {
            try {
              t.call(arguments.copy(), CallContext.of(agent)).onComplete(promise);
            } catch (RuntimeException e) {
              // Tools may reject arguments by throwing before they start any work.
              promise.fail(e);
            }
          });
      JsonObject r = promise.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return new ToolResult(r, false);
    } catch (ToolException te) {
      return new ToolResult(te.toErrorObject(), true);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ToolException te) {
        return new ToolResult(te.toErrorObject(), true);
      }
      throw new AssertionError("tool " + tool + " failed unexpectedly", e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  public ToolResult call(String tool, String argumentsJson) {
    return call(tool, new JsonObject(argumentsJson));
  }

  public List<String> toolNames() {
    return services.tools().tools().stream().map(Tool::name).toList();
  }

  @Override
  public void close() {
    try {
      services.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
