package dev.gram.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * The running server: one Vert.x instance, one vault, one set of write actors, one index, and the
 * transports that share them.
 */
public final class GramServer {
  private final Vertx vertx;
  private final ServerConfig config;
  private final Promise<Void> stopped = Promise.promise();

  private GramServer(Vertx vertx, ServerConfig config) {
    this.vertx = vertx;
    this.config = config;
  }

  public static String version() {
    String v = GramServer.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  public static Future<GramServer> start(ServerConfig config) {
    Vertx vertx = Vertx.vertx();
    GramServer server = new GramServer(vertx, config);
    return Future.succeededFuture(server);
  }

  public ServerConfig config() {
    return config;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** Completes once the server has shut down. */
  public Future<Void> stopped() {
    return stopped.future();
  }
}
