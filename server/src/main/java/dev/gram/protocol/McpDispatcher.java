package dev.gram.protocol;

import dev.gram.async.Foreground;
import dev.gram.tools.spi.Prompts;
import dev.gram.tools.spi.Resources;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one entry to MCP: takes a parsed message and the {@link Channel} it came on, and answers
 * with a {@link Reply}. It only routes: {@link RequestEra} says which era serves a request, and
 * each era's handshake and each method family has a handler of its own ({@link LegacyHandshake},
 * {@link ModernEra}, {@link ToolsList}, {@link ToolsCall}, {@link Subscriptions}). Transports only
 * move bytes and map replies to their framing. See the package documentation for the rules.
 */
public final class McpDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);

  private final ServerInfo info;
  private final ProtocolMetrics metrics;
  private final LegacyHandshake legacyHandshake;
  private final ModernEra modernEra;
  private final ToolsList toolsList;
  private final ToolsCall toolsCall;
  private final Subscriptions subscriptions;
  private final ResourcesMethods resources;
  private final PromptsMethods prompts;
  private final RunningTools running;
  private final Promise<Void> handshakeOver = Promise.promise();

  /** The requests of a handshake, in either era. */
  private static final java.util.Set<String> HANDSHAKE = java.util.Set.of("initialize", "ping", "server/discover");

  /** A server of tools only: no resources, no prompts. */
  private volatile long lastRequestNanos;

  public McpDispatcher(
      Vertx vertx, ToolRegistry registry, ServerInfo info, ProtocolMetrics metrics) {
    this(vertx, registry, null, null, info, metrics, Foreground.none());
  }

  /**
   * @param resources the documents as resources, or null for none
   * @param prompts the prompts, or null for none; served together with resources
   * @param foreground told of every tool call from its start to its answer: the server's background
   *     work gives way to them
   */
  public McpDispatcher(
      Vertx vertx,
      ToolRegistry registry,
      Resources resources,
      Prompts prompts,
      ServerInfo info,
      ProtocolMetrics metrics,
      Foreground foreground) {
    this.info = info;
    this.metrics = metrics;
    boolean served = resources != null && prompts != null;
    this.legacyHandshake = new LegacyHandshake(info, served);
    this.modernEra = new ModernEra(info, served);
    this.toolsList = new ToolsList(registry.tools(), info);
    this.running = new RunningTools(vertx, foreground);
    this.toolsCall = new ToolsCall(registry, new ToolResults(info), metrics, running);
    this.subscriptions = new Subscriptions(info, served ? resources : null, metrics);
    this.resources = served ? new ResourcesMethods(resources, info, metrics) : null;
    this.prompts = served ? new PromptsMethods(prompts, info, metrics) : null;
  }

  /**
   * Completes at the first request past a client's handshake: anything but {@code initialize},
   * {@code ping} and {@code server/discover}, on any transport in either era (a {@code tools/list}
   * usually; a stateless client may call a tool first). The server then starts the work the
   * handshake does not need.
   */
  public Future<Void> handshakeOver() {
    return handshakeOver.future();
  }

  public ServerInfo serverInfo() {
    return info;
  }

  /** Handles one message; request-related notifications go to the channel's outbound. */
  public Future<Reply> handle(JsonRpc.Message message, Channel channel) {
    return handle(message, channel, null);
  }

  /**
   * Handles one message.
   *
   * @param requestStream where notifications about this request go (the SSE stream of an HTTP
   *     POST); {@code null} for the channel's own outbound
   */
  public Future<Reply> handle(
      JsonRpc.Message message, Channel channel, Consumer<JsonObject> requestStream) {
    channel.touch();
    try {
      if (message instanceof JsonRpc.Invalid invalid) {
        metrics.protocolError("", JsonRpc.errorCode(invalid.error()));
        return Future.succeededFuture(
            new Reply.Error(invalid.error(), Reply.ErrorKind.INVALID_MESSAGE));
      }
      if (message instanceof JsonRpc.Response) {
        return Future.succeededFuture(Reply.ACCEPTED);
      }
      if (message instanceof JsonRpc.Notification n) {
        notification(n, channel);
        return Future.succeededFuture(Reply.ACCEPTED);
      }
      JsonRpc.Request request = (JsonRpc.Request) message;
      // The server's own warm-up is not a client: it neither ends the handshake (which starts the
      // scan and the index) nor counts as a client's latest request.
      if (!channel.warmup()) {
        lastRequestNanos = System.nanoTime();
      }
      if (!channel.warmup() && !HANDSHAKE.contains(request.method())) {
        handshakeOver.tryComplete();
      }
      Consumer<JsonObject> stream = requestStream != null ? requestStream : channel::send;
      return request(request, channel, stream)
          .recover(
              e -> {
                LOG.error("{} {} failed", channel, request.method(), e);
                return Future.succeededFuture(internalError(request.id()));
              })
          .onSuccess(
              reply -> {
                int code = JsonRpc.errorCode(reply.message());
                if (code != 0) {
                  metrics.protocolError(request.method(), code);
                }
              });
    } catch (RuntimeException e) {
      LOG.error("{} message failed", channel, e);
      return Future.succeededFuture(
          internalError(message instanceof JsonRpc.Request r ? r.id() : null));
    }
  }

  private static Reply internalError(Object id) {
    return Reply.error(id, JsonRpc.INTERNAL_ERROR, "Internal error", Reply.ErrorKind.INTERNAL);
  }

  private static void notification(JsonRpc.Notification n, Channel channel) {
    switch (n.method()) {
      case "notifications/initialized" -> LegacyHandshake.initialized(channel);
      case "notifications/cancelled" -> {
        Object id = n.params().getValue("requestId");
        if (id instanceof String || id instanceof Number) {
          channel.cancel(id, n.params().getString("reason", "cancelled by the client"));
        }
      }
      default -> {
        // Other notifications (roots/list_changed, progress from a client...) need no action.
      }
    }
  }

  private Future<Reply> request(
      JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream) {
    RequestEra era = RequestEra.of(req, channel);
    if ("initialize".equals(req.method())) {
      // 2026-07-28 removed initialize; older versions open their session with it.
      return Future.succeededFuture(
          era instanceof RequestEra.Modern
              ? methodNotFound(req, Reply.ErrorKind.UNKNOWN_METHOD)
              : legacyHandshake.initialize(req, channel));
    }
    if (era instanceof RequestEra.Modern modern) {
      return modern(req, modern.meta(), channel, stream);
    }
    if (era instanceof RequestEra.Legacy legacy) {
      return legacy(req, LegacyHandshake.agent(legacy.handshake(), channel), channel, stream);
    }
    if (era instanceof RequestEra.Refused refused) {
      return Future.succeededFuture(refused.reply());
    }
    return Future.succeededFuture(LegacyHandshake.beforeInitialize(req));
  }

  /** The methods of a legacy session. */
  private Future<Reply> legacy(
      JsonRpc.Request req, String agent, Channel channel, Consumer<JsonObject> stream) {
    return switch (req.method()) {
      case "ping" -> Future.succeededFuture(LegacyHandshake.ping(req));
      case "tools/list" -> Future.succeededFuture(toolsList.list(req, Era.LEGACY));
      case "tools/call" -> toolsCall.call(req, channel, stream, agent, Era.LEGACY);
      default -> {
        if (resources == null) {
          yield Future.succeededFuture(methodNotFound(req, Reply.ErrorKind.METHOD_ERROR));
        }
        yield switch (req.method()) {
          case "resources/list" -> resources.list(req, Era.LEGACY, channel.caller());
          case "resources/templates/list" ->
              Future.succeededFuture(resources.templates(req, Era.LEGACY, channel.caller()));
          case "resources/read" -> resources.read(req, Era.LEGACY, channel.caller());
          case "resources/subscribe" ->
              Future.succeededFuture(subscriptions.subscribe(req, channel));
          case "resources/unsubscribe" ->
              Future.succeededFuture(subscriptions.unsubscribe(req, channel));
          case "prompts/list" -> Future.succeededFuture(prompts.list(req, Era.LEGACY));
          case "prompts/get" -> Future.succeededFuture(prompts.get(req, Era.LEGACY, channel.caller()));
          default -> Future.succeededFuture(methodNotFound(req, Reply.ErrorKind.METHOD_ERROR));
        };
      }
    };
  }

  /** The methods of the 2026-07-28 era, once the request's {@code _meta} is complete. */
  private Future<Reply> modern(
      JsonRpc.Request req, JsonObject meta, Channel channel, Consumer<JsonObject> stream) {
    Reply refused = ModernEra.checkMeta(req, meta);
    if (refused != null) {
      return Future.succeededFuture(refused);
    }
    String agent = ModernEra.agent(meta, channel);
    return switch (req.method()) {
      case "server/discover" -> Future.succeededFuture(modernEra.discover(req));
      case "tools/list" -> Future.succeededFuture(toolsList.list(req, Era.MODERN));
      case "tools/call" -> toolsCall.call(req, channel, stream, agent, Era.MODERN);
      case "subscriptions/listen" -> subscriptions.listen(req, channel, stream);
      // ping is gone from this era: server/discover answers whether the server is there; so are
      // resources/subscribe and unsubscribe, replaced by subscriptions/listen.
      default -> {
        if (resources == null) {
          yield Future.succeededFuture(methodNotFound(req, Reply.ErrorKind.UNKNOWN_METHOD));
        }
        yield switch (req.method()) {
          case "resources/list" -> resources.list(req, Era.MODERN, channel.caller());
          case "resources/templates/list" ->
              Future.succeededFuture(resources.templates(req, Era.MODERN, channel.caller()));
          case "resources/read" -> resources.read(req, Era.MODERN, channel.caller());
          case "prompts/list" -> Future.succeededFuture(prompts.list(req, Era.MODERN));
          case "prompts/get" -> Future.succeededFuture(prompts.get(req, Era.MODERN, channel.caller()));
          default -> Future.succeededFuture(methodNotFound(req, Reply.ErrorKind.UNKNOWN_METHOD));
        };
      }
    };
  }

  private static Reply methodNotFound(JsonRpc.Request req, Reply.ErrorKind kind) {
    return Reply.error(
        req.id(), JsonRpc.METHOD_NOT_FOUND, "Method not found: " + req.method(), kind);
  }

  /** Ends every open {@code subscriptions/listen} stream with its graceful final result. */
  public void endSubscriptions() {
    subscriptions.endAll();
  }

  /** Resource subscriptions alive now (2026-07-28 streams and legacy channels' watches). */
  public int liveSubscriptions() {
    return subscriptions.live();
  }

  /** {@link System#nanoTime} when a client's last request arrived, on any channel (0: none yet). */
  public long lastRequestNanos() {
    return lastRequestNanos;
  }

  /** Tool calls still running, including cancelled ones whose tool has not finished yet. */
  public int running() {
    return running.count();
  }

  /**
   * Completes once every running tool call has finished (so writes reach the store), or after
   * {@code timeout}, whichever comes first.
   */
  public Future<Void> drain(Duration timeout) {
    return running.drain(timeout);
  }
}
