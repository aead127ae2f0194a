package dev.gram.web;

import dev.gram.protocol.Outbound;
import dev.gram.protocol.SubscriberStream;
import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ResourceChange;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

/**
 * What an open page follows: the vault's change feed as server-sent events, one {@code change}
 * event per new revision of a document the page watches ({@code {path, rev, hash, by, summary,
 * kind}}). Each page gets a {@link SubscriberStream}, the same bounded, coalescing queue that MCP
 * subscriptions use, so a browser that stops reading costs a commit nothing and at worst misses
 * intermediate revisions (the page then shows the latest).
 */
final class LiveEvents {
  static final long KEEP_ALIVE_MS = 20_000;

  private final Vertx vertx;
  private final ChangeFeed feed;
  private final Set<Runnable> open = ConcurrentHashMap.newKeySet();

  LiveEvents(Vertx vertx, ChangeFeed feed) {
    this.vertx = vertx;
    this.feed = feed;
  }

  /**
   * Streams the changes of one document ({@code path}), or of every document under {@code
   * folder} ({@code ""} for the whole vault), that the visitor may read.
   */
  void stream(HttpServerResponse response, String path, String folder, Visitor visitor) {
    Predicate<ResourceChange> wanted = c -> visitor.mayRead(c.path())
        && (path != null ? c.path().equals(path) : folder.isEmpty() || c.path().startsWith(folder + "/"));
    response.setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-store")
        .putHeader("X-Accel-Buffering", "no");
    response.write(": open\n\n");
    Context context = vertx.getOrCreateContext();
    Outbound outbound = new Outbound() {
      @Override
      public void accept(JsonObject message) {
        write(response, "change", message.encode());
      }

      @Override
      public boolean congested() {
        return !response.ended() && !response.closed() && response.writeQueueFull();
      }

      @Override
      public Executor executor() {
        return task -> context.runOnContext(v -> task.run());
      }
    };
    SubscriberStream stream = new SubscriberStream(feed, wanted, false, outbound,
        (List<ResourceChange> changes, boolean listChanged) -> {
          for (ResourceChange c : changes) {
            outbound.accept(event(c));
          }
        });
    long timer = vertx.setPeriodic(KEEP_ALIVE_MS, id -> write(response, null, null));
    Runnable end = new Runnable() {
      @Override
      public void run() {
        open.remove(this);
        vertx.cancelTimer(timer);
        stream.close();
        if (!response.ended() && !response.closed()) {
          response.end();
        }
      }
    };
    open.add(end);
    response.closeHandler(v -> end.run());
    response.exceptionHandler(e -> end.run());
  }

  static JsonObject event(ResourceChange c) {
    return new JsonObject()
        .put("path", c.path())
        .put("rev", c.rev())
        .put("hash", c.hash())
        .put("by", c.by())
        .put("summary", c.summary())
        .put("kind", c.kind().name().toLowerCase(java.util.Locale.ROOT));
  }

  private static void write(HttpServerResponse response, String name, String data) {
    if (response.ended() || response.closed()) {
      return;
    }
    response.write(name == null ? ":\n\n" : "event: " + name + "\ndata: " + data + "\n\n");
  }

  /** Ends every stream: the server is stopping. */
  void endAll() {
    for (Runnable r : List.copyOf(open)) {
      r.run();
    }
  }

  int open() {
    return open.size();
  }
}
