package dev.gram.transport;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;

/**
 * Pages served beside {@code /mcp} on the same port, under a path prefix of their own (the web
 * view at {@code /ui}). The transport knows nothing of what they are: it puts them behind the same
 * guard as every route (shutdown, {@code Host}, {@code Origin}) and lets them ask for a credential
 * their own way, since a browser cannot send a bearer token with a link or a form.
 */
public interface HttpMount {

  /** The prefix it serves, such as {@code /ui}; {@code /} redirects there. */
  String prefix();

  /** Adds its routes; called once per HTTP server, after the guard. */
  void mount(Vertx vertx, Router router);

  /** The server is stopping: end streams that would hold connections open. */
  default void quiesce() {}

  /** True when {@code path} belongs to this mount (its prefix, or anything under it). */
  default boolean covers(String path) {
    return path.equals(prefix()) || path.startsWith(prefix() + "/");
  }
}
