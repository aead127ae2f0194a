package dev.gram.server.cli;

import dev.gram.server.GramServer;
import dev.gram.server.ServeOptions;
import dev.gram.server.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Runs the server until it stops: the end of stdin, SIGTERM or SIGINT (exit 0), or a start that
 * failed (exit 1, one line on stderr saying why).
 */
final class Serving {
  /** Set when a signal started the JVM's shutdown (no handler could be installed). */
  private static final AtomicBoolean SIGNALLED = new AtomicBoolean();

  /** Set when the process exits on its own account; the shutdown hook then leaves it alone. */
  private static final AtomicBoolean EXITING = new AtomicBoolean();

  private Serving() {}

  static int run(CommandSpec spec, ServeOptions options) {
    ServerConfig config;
    try {
      config = options.toConfig(System.getenv(), false, false);
    } catch (ServerConfig.UsageException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    LogOptions.defaultTo("info");
    // stdout belongs to the stdio transport, which writes to file descriptor 1 directly. Anything
    // printed through System.out (a library, a stray debug line) goes to stderr instead.
    PrintStream err = System.err;
    System.setOut(err);
    Logger log = LoggerFactory.getLogger(Serving.class);
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Promise<GramServer> starting = Promise.promise();
    Future<GramServer> started = starting.future();
    AtomicReference<GramServer> running = new AtomicReference<>();
    java.util.concurrent.atomic.AtomicInteger status = new java.util.concurrent.atomic.AtomicInteger(Exit.OK);
    // SIGTERM and SIGINT are handled here rather than by letting them start the JVM's shutdown:
    // shutdown hooks run all at once, and ONNX Runtime's hook frees its native environment while
    // the embedding model may still be using it (a SIGSEGV instead of a clean exit 0). Handled
    // here, the server stops first and the JVM's hooks run after it, when nothing is in flight.
    // Installed before the server starts: its HTTP port is bound (and announced) on an event loop
    // while this thread may still be in start(), and a signal in between started the JVM's
    // shutdown beside a starting server (exit 130; a SIGSEGV in ONNX Runtime when its hook freed
    // the environment while the model loaded).
    if (!handleSignals(started, exit, log)) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> onSignal(running.get()), "gram-shutdown"));
    }
    GramServer.start(config).onComplete(starting);
    started
        .onSuccess(server -> {
          running.set(server);
          announce(server, err);
          // A vault that cannot be read would leave a server whose every tool fails: stop it.
          server.services().vault().scanned().onFailure(e -> {
            err.println("gram-mcp: the vault " + config.vault().toAbsolutePath().normalize()
                + " cannot be read: " + Exit.describe(e) + "; stopping");
            status.set(Exit.FAILED);
            server.stop();
          });
          server.stopped().onComplete(done -> exit.complete(status.get()));
        })
        .onFailure(e -> {
          err.println("gram-mcp: could not start: " + Exit.describe(e));
          log.debug("start failed", e);
          exit.complete(Exit.FAILED);
        });
    int code = exit.join();
    if (SIGNALLED.get()) {
      // The shutdown hook is stopping the server and ends the process itself.
      sleepForever();
    }
    EXITING.set(true);
    return code;
  }

  /** Says where the server is and what it serves, on stderr, once it has started. */
  private static void announce(GramServer server, PrintStream err) {
    ServerConfig c = server.config();
    err.println("gram-mcp " + GramServer.version() + ": vault " + c.vault().toAbsolutePath().normalize()
        + ", search index " + c.index().toAbsolutePath().normalize());
    if (c.stdio()) {
      err.println("gram-mcp: serving stdio: JSON-RPC lines on stdin/stdout; the server stops when stdin closes");
    }
    if (server.httpPort() > 0) {
      String host = c.host().contains(":") && !c.host().startsWith("[") ? "[" + c.host() + "]" : c.host();
      String base = "http://" + host + ":" + server.httpPort();
      err.println("gram-mcp: HTTP " + base + "/mcp (Streamable HTTP), " + base + "/sse (HTTP+SSE), "
          + base + "/healthz, " + base + "/metrics, " + base + "/ui/ (web view)");
    }
    err.flush();
  }

  /**
   * Installs SIGTERM/SIGINT handlers that stop the server (once it has started: a signal during
   * start waits for it), then exit 0; false if the JVM does not allow it.
   */
  private static boolean handleSignals(Future<GramServer> started, CompletableFuture<Integer> exit, Logger log) {
    try {
      for (String name : new String[] {"TERM", "INT"}) {
        sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
          log.info("SIG{}: stopping", name);
          started.onComplete(ar -> {
            if (ar.succeeded()) {
              ar.result().stop().onComplete(done -> exit.complete(Exit.OK));
            } else {
              exit.complete(Exit.OK);
            }
          });
        });
      }
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
      log.debug("no signal handling ({}); relying on a shutdown hook", e.toString());
      return false;
    }
  }

  /**
   * SIGTERM or SIGINT without a handler: shut down as gracefully as on end of stdin, then end
   * with status 0 rather than the JVM's 143/130, because being asked to stop is not a failure.
   */
  private static void onSignal(GramServer server) {
    if (EXITING.get()) {
      return;
    }
    SIGNALLED.set(true);
    if (server != null) {
      try {
        server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("gram-mcp: shutdown did not finish: " + e);
      }
    }
    Runtime.getRuntime().halt(0);
  }

  private static void sleepForever() {
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
