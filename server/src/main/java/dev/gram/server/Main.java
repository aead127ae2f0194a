package dev.gram.server;

import io.vertx.core.Future;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code java -jar gram-mcp.jar}: parses the command line and runs the server until told to stop. */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  /** Set when the process exits on its own account; a signal-driven exit is then left alone. */
  private static final AtomicBoolean EXITING = new AtomicBoolean();

  /** Set when a signal started the JVM's shutdown; System.exit would then block forever. */
  private static final AtomicBoolean SIGNALLED = new AtomicBoolean();

  private Main() {}

  public static void main(String[] args) {
    // stdout belongs to the stdio transport, which writes to file descriptor 1 directly. Anything
    // printed through System.out (a library, a stray debug line) goes to stderr instead.
    PrintStream err = System.err;
    System.setOut(err);
    ServerConfig config;
    try {
      config = ServerConfig.parse(args, System.getenv());
    } catch (ServerConfig.UsageException e) {
      err.println("gram-mcp: " + e.getMessage());
      exit(2);
      return;
    }
    if (config.help()) {
      err.print(ServerConfig.usage());
      return;
    }
    if (config.version()) {
      err.println("gram-mcp " + GramServer.version());
      return;
    }
    Future<GramServer> started = GramServer.start(config);
    AtomicReference<GramServer> running = new AtomicReference<>();
    // SIGTERM and SIGINT are handled here rather than by letting them start the JVM's shutdown:
    // shutdown hooks run all at once, and ONNX Runtime's hook frees its native environment while
    // the embedding model may still be using it (a SIGSEGV instead of a clean exit 0). Handled
    // here, the server stops first and the JVM's hooks run after it, when nothing is in flight.
    if (!handleSignals(started)) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> onSignal(running.get()), "gram-shutdown"));
    }
    started
        .onSuccess(
            server -> {
              running.set(server);
              server.stopped().onComplete(done -> exit(0));
            })
        .onFailure(
            e -> {
              LOG.error("gram-mcp could not start: {}", e.getMessage(), e);
              exit(1);
            });
  }

  /**
   * SIGTERM or SIGINT: shut down as gracefully as on end of stdin, then end with status 0 rather
   * than the JVM's 143/130, because being asked to stop is not a failure.
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

  /**
   * Installs SIGTERM/SIGINT handlers that stop the server (once it has started: a signal during
   * start waits for it), then exit 0; false if the JVM does not allow it.
   */
  private static boolean handleSignals(Future<GramServer> started) {
    try {
      for (String name : new String[] {"TERM", "INT"}) {
        sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
          LOG.info("SIG{}: stopping", name);
          started.onComplete(ar -> {
            if (ar.succeeded()) {
              ar.result().stop().onComplete(done -> exit(0));
            } else {
              exit(0);
            }
          });
        });
      }
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
      LOG.debug("no signal handling ({}); relying on a shutdown hook", e.toString());
      return false;
    }
  }

  private static void exit(int status) {
    if (SIGNALLED.get()) {
      // The shutdown hook is waiting for the server and ends the process itself.
      return;
    }
    EXITING.set(true);
    // The JVM's shutdown hooks include ONNX Runtime's, which frees the native environment: never
    // while the embedding model is still being created with it.
    dev.gram.index.EmbeddingModel.awaitLoadIfStarted(java.time.Duration.ofSeconds(20));
    System.exit(status);
  }
}
