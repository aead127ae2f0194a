package dev.gram.server;

import dev.gram.base.ResponseBudget;
import dev.gram.cluster.ClusterSetup;
import dev.gram.index.IndexStatus;
import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.ServerInfo;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.transport.HttpOptions;
import dev.gram.transport.HttpTransport;
import dev.gram.transport.ServerMetrics;
import dev.gram.transport.StdioTransport;
import dev.gram.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: one Vert.x instance, one vault, one set of write actors, one index, and the
 * transports that share them. A write made through one transport is visible through every other
 * at once because they all call the same {@link Tool} instances through one {@link McpDispatcher}.
 *
 * <p>{@link #stop()} is the only way down, whatever asked for it (SIGTERM/SIGINT via {@link Main},
 * the end of stdin, a test): stop accepting, end long-lived streams, let tool calls in flight
 * finish (so their writes land), flush stdout, close the transports, run the {@link #onShutdown}
 * hooks (last registered first), close Vert.x.
 *
 * <p>Why about 410 lines: it is the server's lifecycle read in order, start (Vert.x, callers,
 * services, transports) then stop, each step a method; who may call is {@link Callers}'s and the
 * gauges are {@link ServerGauges}', so what is left is the order itself, which split across
 * classes would have to be read in several places.
 */
public final class GramServer {
  private static final Logger LOG = LoggerFactory.getLogger(GramServer.class);

  /** How long shutdown waits for tool calls in flight. */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

  /** How long after its transports are up the server waits for a client before its background start. */
  static final long HANDSHAKE_GRACE_MS = 1_000;

  private final Vertx vertx;
  private final ServerConfig config;
  private final ServerMetrics metrics;
  private final java.time.Clock clock;
  private final Promise<Void> stopped = Promise.promise();
  private final List<Supplier<Future<Void>>> shutdownHooks = new CopyOnWriteArrayList<>();
  private final List<String> deployments = new CopyOnWriteArrayList<>();
  private final List<Transport> transports = new CopyOnWriteArrayList<>();
  private volatile McpDispatcher dispatcher;
  /** Stopped first at shutdown: the drain waits for the clients' calls, and it would ask more. */
  private volatile RecallWarmup warmup;
  private volatile HttpTransport http;
  private volatile StdioTransport stdio;
  private volatile Services services;
  private volatile dev.gram.access.Authenticator authenticator = dev.gram.access.Authenticator.open();
  private volatile io.vertx.core.json.JsonObject resourceMetadata;
  private Future<Void> stopping;
  /** The transports' deployment; stop() lets it finish first. */
  private volatile Future<Void> deployed = Future.succeededFuture();

  private GramServer(Vertx vertx, ServerConfig config, ServerMetrics metrics, java.time.Clock clock) {
    this.vertx = vertx;
    this.config = config;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** The vault, index and tools behind the transports. */
  public Services services() {
    return services;
  }

  /** The recall warm-up, or null when it is turned off (tests watch it). */
  RecallWarmup warmup() {
    return warmup;
  }

  /** The dispatcher every transport shares (tests count its live subscriptions). */
  public McpDispatcher dispatcher() {
    return dispatcher;
  }

  /** The build's version ({@link BuildInfo}), also sent as {@code serverInfo.version}. */
  public static String version() {
    return BuildInfo.version();
  }

  /** Starts with the process's own stdin and stdout (file descriptors 0 and 1). */
  public static Future<GramServer> start(ServerConfig config) {
    // The descriptors, not System.in/out: Main points System.out at stderr so that no stray print
    // can corrupt the protocol stream.
    return start(
        config, new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
  }

  /** Starts with the given streams standing for stdin and stdout (tests, embedding). */
  public static Future<GramServer> start(ServerConfig config, InputStream in, OutputStream out) {
    return start(config, in, out, java.time.Clock.systemUTC());
  }

  /**
   * Starts with the given streams and the clock revisions are recorded by: the one place time
   * enters the server, so that tests set it instead of sleeping for distinct timestamps.
   */
  public static Future<GramServer> start(ServerConfig config, InputStream in, OutputStream out,
      java.time.Clock clock) {
    // Before anything is created or written: a vault that is a file, a port that is taken.
    try {
      for (String warning : StartupChecks.check(config)) {
        LOG.warn(warning);
      }
    } catch (StartupChecks.StartupException e) {
      return Future.failedFuture(e);
    }
    ServerMetrics metrics = new ServerMetrics();
    VertxOptions options =
        new VertxOptions()
            // Netty's epoll on Linux (the pom's native file), NIO where there is none.
            .setPreferNativeTransport(true)
            .setMetricsOptions(
                new MicrometerMetricsOptions()
                    .setEnabled(true)
                    // Vert.x's HTTP server meters race with the server's start: a connection
                    // accepted before the server has its meters gets none, and its first
                    // request then fails inside Vert.x and is never answered (found by
                    // StartupHammerIT). The transport counts its requests itself.
                    .addDisabledMetricsCategory(MetricsDomain.HTTP_SERVER)
                    .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true)));
    var builder = Vertx.builder().withMetrics(new MicrometerMetricsFactory(metrics.registry()));
    Future<Vertx> vertxReady;
    io.vertx.spi.cluster.hazelcast.HazelcastClusterManager manager = null;
    if (config.cluster() == null) {
      vertxReady = Future.succeededFuture(builder.with(options).build());
    } else {
      manager = ClusterSetup.manager(config.cluster());
      vertxReady = builder.with(ClusterSetup.eventBus(options, config.cluster()))
          .withClusterManager(manager)
          .buildClustered()
          .recover(e -> Future.failedFuture(new StartupChecks.StartupException(
              "cannot join the cluster at " + config.cluster().host() + ":" + config.cluster().port() + ": "
                  + e.getMessage())));
    }
    var clusterManager = manager;
    return vertxReady.compose(vertx -> {
      GramServer server = new GramServer(vertx, config, metrics, clock);
      com.hazelcast.core.HazelcastInstance hz =
          clusterManager == null ? null : ClusterSetup.hazelcast(clusterManager);
      return server.credentials()
          .compose(v -> tools(server, hz))
          .compose(tools -> server.deploy(tools, in, out))
          .map(server)
          .recover(
              e ->
                  server.stop().transform(x -> Future.<GramServer>failedFuture(e)));
    });
  }

  /**
   * The tools every transport serves, on one vault and one index. The vault's queued writes
   * finish before Vert.x closes (the shutdown hook).
   */
  private static Future<ToolRegistry> tools(GramServer server, com.hazelcast.core.HazelcastInstance hz) {
    Services services;
    try {
      services = Services.start(server.vertx, server.config, server.clock, hz);
    } catch (java.io.UncheckedIOException e) {
      String why = e.getCause() instanceof dev.gram.store.VaultInUseException
          ? e.getCause().getMessage() + ": connect to that server (--http) or stop it first"
          : "cannot open the vault's write-ahead log: " + e.getCause().getMessage();
      return Future.failedFuture(new StartupChecks.StartupException(why));
    }
    server.services = services;
    server.onShutdown(services::close);
    server.writeQueueDepth(services.vault().metrics()::writeQueueDepth);
    server.metrics.buildInfo(version());
    ServerGauges.register(server.metrics, services);
    IndexStatus index = services.context().index();
    // The heap grown by the start-up index build and embedding goes back once clients are quiet.
    long[] lastUnembedded = {-1};
    long trim = IdleHeapTrim.start(server.vertx, server.metrics::activity, () -> {
      long unembedded = index.unembeddedChunks();
      boolean embedding = unembedded != lastUnembedded[0];
      lastUnembedded[0] = unembedded;
      return embedding || index.lag().commits() > 0 || index.stats().pendingFiles() > 0;
    });
    server.onShutdown(() -> {
      server.vertx.cancelTimer(trim);
      return Future.succeededFuture();
    });
    return Future.succeededFuture(services.tools());
  }

  private Future<Void> credentials() {
    return Callers.fromFlags(vertx, config).map(c -> {
      authenticator = c.authenticator();
      resourceMetadata = c.resourceMetadata();
      localCaller = c.local();
      metrics.authMode(authenticator.mode());
      return null;
    });
  }

  private volatile dev.gram.access.Identity localCaller = dev.gram.access.Identity.local();

  /** How callers are recognized: none, token, agents, oauth, or several joined by +. */
  public String authMode() {
    return authenticator.mode();
  }

  private Future<Void> deploy(ToolRegistry registry, InputStream in, OutputStream out) {
    dispatcher =
        new McpDispatcher(
            vertx,
            registry,
            services.resources(),
            services.prompts(),
            new ServerInfo("gram-mcp", version(), instructions()),
            metrics,
            services.foreground());
    // Side by side: a sidecar's runtime waits on stdio, not on the HTTP port being bound.
    Future<Void> httpUp = Future.succeededFuture();
    if (config.http()) {
      HttpTransport h =
          new HttpTransport(
              dispatcher,
              metrics,
              new HttpOptions(
                  config.host(),
                  config.port(),
                  authenticator,
                  resourceMetadata,
                  config.allowedOrigins(),
                  config.maxBodyBytes(),
                  config.idleTimeout(),
                  () -> {
                    io.vertx.core.json.JsonObject health =
                        new io.vertx.core.json.JsonObject().put("auth", authenticator.mode());
                    return services.cluster() == null ? health : health.put("cluster", services.cluster().health());
                  }),
              List.of(webUi(registry)));
      httpUp = vertx.deployVerticle(h).map(id -> {
        deployments.add(id);
        transports.add(h);
        http = h;
        return (Void) null;
      });
      if (config.stdio()) {
        // A sidecar started over stdio must still serve its runtime when the HTTP port is taken
        // (by a shared server, or by another sidecar): HTTP is then a convenience, not the point.
        httpUp = httpUp.recover(e -> {
          LOG.warn("HTTP is off: could not listen on {}:{} ({}); serving stdio only",
              config.host(), config.port(), e.getMessage());
          return Future.succeededFuture();
        });
      } else {
        // The port was free when StartupChecks looked; taken since, the error still names it.
        httpUp = httpUp.recover(e -> Future.failedFuture(new StartupChecks.StartupException(
            "cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage())));
      }
    }
    Future<Void> stdioUp = Future.succeededFuture();
    if (config.stdio()) {
      StdioTransport s =
          new StdioTransport(dispatcher, in, out, config.maxBodyBytes(), this::stdinClosed, localCaller);
      stdioUp = vertx.deployVerticle(s).map(id -> {
        deployments.add(id);
        transports.add(s);
        stdio = s;
        return null;
      });
    }
    // A stdin that closes at once stops the server while HTTP may still be starting: stop()
    // waits for this before it takes the transports down.
    Future<Void> chain = Future.all(httpUp, stdioUp).mapEmpty();
    deployed = chain;
    // The vault's scan, the index and the embedding model start once a client is past its
    // handshake (a sidecar's runtime asks for the tool list at once), after the task that answers
    // it; or a moment after the transports are up when no client comes.
    dispatcher.handshakeOver().onSuccess(v -> vertx.runOnContext(x -> services.handshakeOver()));
    warmup = RecallWarmup.start(vertx, dispatcher, services.context().index(), services.vault()::documents);
    return chain.onSuccess(v -> vertx.setTimer(HANDSHAKE_GRACE_MS, id -> services.handshakeOver()));
  }

  /**
   * The web view on the HTTP port ({@code /ui}): the same tools and change feed as every agent.
   * Without a token, a person's edits are recorded as {@code person:<the user running the
   * server>}; with one, as the name given at log-in.
   */
  private dev.gram.web.WebUi webUi(ToolRegistry registry) {
    String person = "person:" + System.getProperty("user.name", "local");
    return new dev.gram.web.WebUi(services.context(), registry, services.resources().changes(),
        new dev.gram.web.WebAccess(authenticator, person, clock));
  }

  private void stdinClosed() {
    LOG.info("stdin closed: shutting down");
    stop();
  }

  private static String instructions() {
    return "gram-mcp is a memory of .gram documents shared by many agents. Call gram_profile "
        + "before your first write. Read a document before changing it and pass the base_revision "
        + "and expected_hash you read; a conflict answer says what moved. No answer is larger "
        + "than " + ResponseBudget.BYTES + " bytes: follow cursors to page.";
  }

  public ServerConfig config() {
    return config;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** The HTTP port actually bound, or -1 when HTTP is off. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  /**
   * Registers work for shutdown, such as {@code store.close()}; hooks run after the transports
   * stopped and in-flight calls finished, last registered first, before Vert.x closes.
   */
  public GramServer onShutdown(Supplier<Future<Void>> hook) {
    shutdownHooks.add(hook);
    return this;
  }

  /** Feeds the {@code gram_write_queue_depth} gauge (the store's write actors' backlog). */
  public GramServer writeQueueDepth(IntSupplier depth) {
    metrics.writeQueueDepth(depth);
    return this;
  }

  /** Completes once the server has shut down. */
  public Future<Void> stopped() {
    return stopped.future();
  }

  /** Shuts down once; later calls return the same future. */
  public synchronized Future<Void> stop() {
    if (stopping != null) {
      return stopping;
    }
    LOG.info("stopping");
    if (warmup != null) {
      warmup.stop();
    }
    Future<Void> f = deployed.transform(ar -> Future.<Void>succeededFuture());
    f = f.compose(v -> Future.all(transports.stream().map(Transport::quiesce).toList()).mapEmpty());
    f = f.compose(v -> {
      if (dispatcher != null) {
        dispatcher.endSubscriptions();
        return dispatcher.drain(DRAIN_TIMEOUT);
      }
      return Future.succeededFuture();
    });
    f = f.compose(v -> stdio == null ? Future.<Void>succeededFuture() : stdio.flush());
    f = f.compose(v -> undeployAll());
    f = f.compose(v -> runHooks(new ArrayList<>(shutdownHooks), shutdownHooks.size() - 1));
    stopping =
        f.eventually(() -> vertx.close())
            .eventually(() -> {
              metrics.close();
              return Future.succeededFuture();
            })
            .onComplete(
                ar -> {
                  if (ar.failed()) {
                    LOG.warn("shutdown: {}", ar.cause().toString());
                  }
                  stopped.tryComplete();
                })
            .recover(e -> Future.succeededFuture());
    return stopping;
  }

  private Future<Void> undeployAll() {
    Future<Void> f = Future.succeededFuture();
    List<String> ids = new ArrayList<>(deployments);
    // Stdio last: it was deployed last and its writer flushes the final answers.
    for (int i = ids.size() - 1; i >= 0; i--) {
      String id = ids.get(i);
      f = f.compose(v -> vertx.undeploy(id).recover(e -> {
        LOG.warn("undeploy {}: {}", id, e.toString());
        return Future.succeededFuture();
      }));
    }
    return f;
  }

  private static Future<Void> runHooks(List<Supplier<Future<Void>>> hooks, int i) {
    if (i < 0) {
      return Future.succeededFuture();
    }
    Future<Void> f;
    try {
      f = hooks.get(i).get();
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    if (f == null) {
      f = Future.succeededFuture();
    }
    return f.recover(e -> {
          LOG.warn("shutdown hook failed: {}", e.toString());
          return Future.succeededFuture();
        })
        .compose(v -> runHooks(hooks, i - 1));
  }
}
