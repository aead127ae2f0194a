package dev.gram.protocol;

import dev.gram.tools.spi.CallContext;
import dev.gram.base.ErrorCode;
import dev.gram.base.ResponseBudget;
import dev.gram.tools.spi.Tool;
import dev.gram.base.GramException;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place MCP is understood: takes a parsed message and the {@link Channel} it came on, and
 * answers with a {@link Reply}. Transports only move bytes and map replies to their framing.
 *
 * <p>Both protocol eras are served side by side. A request whose {@code _meta} carries {@code
 * io.modelcontextprotocol/protocolVersion} is modern (2026-07-28) and stands alone; otherwise it
 * belongs to the legacy session its channel opened with {@code initialize}. See the package
 * documentation for the full rules.
 */
public final class McpDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);

  public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  public static final String META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** How long clients may cache the tool list and the discovery answer: tools never change while we run. */
  public static final long LIST_TTL_MS = 300_000;

  private final Vertx vertx;
  private final ToolRegistry registry;
  private final ArgumentValidator validator;
  private final ServerInfo info;
  private final ProtocolMetrics metrics;
  private final JsonArray toolDefinitions;
  private final AtomicInteger running = new AtomicInteger();
  private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();

  public McpDispatcher(
      Vertx vertx, ToolRegistry registry, ServerInfo info, ProtocolMetrics metrics) {
    this.vertx = vertx;
    this.registry = registry;
    this.validator = new ArgumentValidator(registry.tools());
    this.info = info;
    this.metrics = metrics;
    this.toolDefinitions = definitions(registry.tools());
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
        return Future.succeededFuture(new Reply(invalid.error(), 400));
      }
      if (message instanceof JsonRpc.Response) {
        return Future.succeededFuture(Reply.NONE);
      }
      if (message instanceof JsonRpc.Notification n) {
        notification(n, channel);
        return Future.succeededFuture(Reply.NONE);
      }
      JsonRpc.Request request = (JsonRpc.Request) message;
      Consumer<JsonObject> stream = requestStream != null ? requestStream : channel::send;
      return request(request, channel, stream)
          .recover(
              e -> {
                LOG.error("{} {} failed", channel, request.method(), e);
                return Future.succeededFuture(
                    error(request, JsonRpc.INTERNAL_ERROR, "Internal error", null, 500));
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
      Object id = message instanceof JsonRpc.Request r ? r.id() : null;
      return Future.succeededFuture(
          new Reply(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error"), 500));
    }
  }

  private void notification(JsonRpc.Notification n, Channel channel) {
    switch (n.method()) {
      case "notifications/initialized" -> channel.markInitialized();
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
    if ("initialize".equals(req.method())) {
      return Future.succeededFuture(initialize(req, channel));
    }
    Object metaValue = req.params().getValue("_meta");
    JsonObject meta = metaValue instanceof JsonObject m ? m : null;
    if (meta != null && meta.containsKey(META_PROTOCOL_VERSION)) {
      Object version = meta.getValue(META_PROTOCOL_VERSION);
      if (!(version instanceof String v)) {
        return Future.succeededFuture(
            error(req, JsonRpc.INVALID_PARAMS, "Invalid params: _meta." + META_PROTOCOL_VERSION
                + " must be a string", null, 400));
      }
      if (ProtocolVersions.isModern(v)) {
        return modern(req, meta, channel, stream);
      }
      if (ProtocolVersions.isLegacy(v)) {
        if (channel.handshake() != null) {
          return legacy(req, channel, stream);
        }
        return Future.succeededFuture(
            error(req, JsonRpc.INVALID_REQUEST,
                "Protocol version " + v + " begins with initialize; per-request _meta needs "
                    + ProtocolVersions.MODERN.get(0), null, 400));
      }
      return Future.succeededFuture(unsupportedVersion(req.id(), v));
    }
    if (channel.handshake() != null) {
      return legacy(req, channel, stream);
    }
    if ("ping".equals(req.method())) {
      // Legacy clients may ping before initialize.
      return Future.succeededFuture(Reply.ok(JsonRpc.result(req.id(), new JsonObject())));
    }
    return Future.succeededFuture(
        error(req, JsonRpc.INVALID_PARAMS,
            "Invalid params: missing _meta." + META_PROTOCOL_VERSION
                + " (send initialize first to use a legacy protocol version)", null, 400));
  }

  /** The -32022 answer, listing every version we speak so the client can pick one. */
  public static Reply unsupportedVersion(Object id, String requested) {
    JsonObject data =
        new JsonObject()
            .put("supported", new JsonArray(new ArrayList<>(ProtocolVersions.ALL)))
            .put("requested", requested);
    return new Reply(
        JsonRpc.error(id, JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data),
        400);
  }

  // ---------------------------------------------------------------- legacy era

  private Reply initialize(JsonRpc.Request req, Channel channel) {
    if (channel.handshake() != null) {
      return error(req, JsonRpc.INVALID_REQUEST, "Invalid Request: already initialized", null, 400);
    }
    Object requested = req.params().getValue("protocolVersion");
    if (!(requested instanceof String requestedVersion)) {
      return error(req, JsonRpc.INVALID_PARAMS, "Invalid params: protocolVersion must be a string",
          null, 400);
    }
    String version = ProtocolVersions.negotiate(requestedVersion);
    JsonObject clientInfo = req.params().getJsonObject("clientInfo", new JsonObject());
    String clientName = clientInfo.getValue("name") instanceof String s && !s.isBlank() ? s : null;
    Object caps = req.params().getValue("capabilities");
    channel.handshake(
        new Channel.Handshake(
            version, clientName, caps instanceof JsonObject c ? c : new JsonObject()));
    JsonObject result =
        new JsonObject()
            .put("protocolVersion", version)
            .put("capabilities", capabilities())
            .put("serverInfo", info.implementation());
    if (info.instructions() != null) {
      result.put("instructions", info.instructions());
    }
    return Reply.ok(JsonRpc.result(req.id(), result));
  }

  private Future<Reply> legacy(JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream) {
    String agent =
        channel.handshake().clientName() != null
            ? channel.handshake().clientName()
            : channel.transport();
    return switch (req.method()) {
      case "ping" -> Future.succeededFuture(Reply.ok(JsonRpc.result(req.id(), new JsonObject())));
      case "tools/list" -> Future.succeededFuture(toolsList(req, false));
      case "tools/call" -> toolsCall(req, channel, stream, agent, false);
      default -> Future.succeededFuture(
          error(req, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + req.method(), null, 200));
    };
  }

  // ---------------------------------------------------------------- modern era

  private Future<Reply> modern(
      JsonRpc.Request req, JsonObject meta, Channel channel, Consumer<JsonObject> stream) {
    if (!(meta.getValue(META_CLIENT_CAPABILITIES) instanceof JsonObject)) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_PARAMS,
              "Invalid params: _meta." + META_CLIENT_CAPABILITIES + " is required", null, 400));
    }
    String agent = channel.transport();
    if (meta.getValue(META_CLIENT_INFO) instanceof JsonObject ci
        && ci.getValue("name") instanceof String name
        && !name.isBlank()) {
      agent = name;
    }
    return switch (req.method()) {
      case "server/discover" -> Future.succeededFuture(Reply.ok(JsonRpc.result(req.id(), discover())));
      case "tools/list" -> Future.succeededFuture(toolsList(req, true));
      case "tools/call" -> toolsCall(req, channel, stream, agent, true);
      case "subscriptions/listen" -> listen(req, channel, stream);
      default -> Future.succeededFuture(
          error(req, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + req.method(), null, 404));
    };
  }

  private JsonObject discover() {
    JsonObject result =
        new JsonObject()
            .put("resultType", "complete")
            .put("supportedVersions", new JsonArray(new ArrayList<>(ProtocolVersions.ALL)))
            .put("capabilities", capabilities());
    if (info.instructions() != null) {
      result.put("instructions", info.instructions());
    }
    return result
        .put("ttlMs", LIST_TTL_MS)
        .put("cacheScope", "public")
        .put("_meta", serverMeta());
  }

  private JsonObject serverMeta() {
    return new JsonObject().put(META_SERVER_INFO, info.implementation());
  }

  private static JsonObject capabilities() {
    return new JsonObject().put("tools", new JsonObject().put("listChanged", false));
  }

  /**
   * {@code subscriptions/listen}: acknowledged with an empty filter, because nothing this server
   * lists ever changes while it runs; the stream stays open until the client closes it or the
   * server shuts down, which answers it gracefully.
   */
  private Future<Reply> listen(JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream) {
    Subscription sub = new Subscription(req.id(), channel);
    if (!channel.register(req.id(), sub)) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_REQUEST, "Invalid Request: id already in flight", null, 400));
    }
    subscriptions.add(sub);
    stream.accept(
        JsonRpc.notification(
            "notifications/subscriptions/acknowledged",
            new JsonObject()
                .put("_meta", new JsonObject().put(META_SUBSCRIPTION_ID, req.id()))
                .put("notifications", new JsonObject())));
    return sub.reply.future();
  }

  private final class Subscription implements Channel.InFlight {
    final Object id;
    final Channel channel;
    final Promise<Reply> reply = Promise.promise();

    Subscription(Object id, Channel channel) {
      this.id = id;
      this.channel = channel;
    }

    @Override
    public void cancel(String reason) {
      subscriptions.remove(this);
      reply.tryComplete(Reply.NONE);
    }

    void end() {
      subscriptions.remove(this);
      channel.unregister(id, this);
      JsonObject result =
          new JsonObject()
              .put("resultType", "complete")
              .put("_meta", serverMeta().put(META_SUBSCRIPTION_ID, id));
      reply.tryComplete(Reply.ok(JsonRpc.result(id, result)));
    }
  }

  /** Ends every open {@code subscriptions/listen} stream with its graceful final result. */
  public void endSubscriptions() {
    for (Subscription s : List.copyOf(subscriptions)) {
      s.end();
    }
  }

  // ---------------------------------------------------------------- tools

  private Reply toolsList(JsonRpc.Request req, boolean modern) {
    Object cursor = req.params().getValue("cursor");
    if (cursor != null) {
      // The whole list fits one page, so we never hand out a cursor.
      return error(req, JsonRpc.INVALID_PARAMS, "Invalid params: unknown cursor", null, 200);
    }
    JsonObject result = new JsonObject().put("tools", toolDefinitions.copy());
    if (modern) {
      result
          .put("resultType", "complete")
          .put("ttlMs", LIST_TTL_MS)
          .put("cacheScope", "public")
          .put("_meta", serverMeta());
    }
    return Reply.ok(JsonRpc.result(req.id(), result));
  }

  private static JsonArray definitions(List<Tool> tools) {
    JsonArray out = new JsonArray();
    for (Tool t : tools) {
      JsonObject annotations =
          new JsonObject()
              .put("readOnlyHint", t.readOnly())
              // Writes keep every revision in the document, so none is destructive.
              .put("destructiveHint", false)
              .put("idempotentHint", t.idempotent())
              .put("openWorldHint", false);
      out.add(
          new JsonObject()
              .put("name", t.name())
              .put("description", t.description())
              .put("inputSchema", t.inputSchema().copy())
              .put("annotations", annotations));
    }
    return out;
  }

  private Future<Reply> toolsCall(
      JsonRpc.Request req,
      Channel channel,
      Consumer<JsonObject> stream,
      String agent,
      boolean modern) {
    Object nameValue = req.params().getValue("name");
    if (!(nameValue instanceof String name)) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_PARAMS, "Invalid params: name must be a string", null, 200));
    }
    Tool tool = registry.get(name);
    if (tool == null) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_PARAMS, "Unknown tool: " + name,
              new JsonObject().put("name", name), 200));
    }
    Object argsValue = req.params().getValue("arguments");
    if (argsValue != null && !(argsValue instanceof JsonObject)) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_PARAMS, "Invalid params: arguments must be an object", null,
              200));
    }
    JsonObject args = argsValue == null ? new JsonObject() : (JsonObject) argsValue;
    long start = System.nanoTime();
    try {
      // Some missing arguments have codes of their own (E_CAS_REQUIRED, E_REQUEST_ID) that must
      // win over the schema's generic E_ARGUMENT.
      tool.precheck(args);
      validator.check(name, args);
    } catch (GramException e) {
      metrics.toolCall(name, channel.transport(), System.nanoTime() - start, e.code().name(), false);
      return Future.succeededFuture(
          Reply.ok(JsonRpc.result(req.id(), errorResult(ToolErrors.errorObject(e), modern))));
    }
    Object progressToken = null;
    if (req.params().getValue("_meta") instanceof JsonObject meta) {
      Object t = meta.getValue("progressToken");
      if (t instanceof String || t instanceof Number) {
        progressToken = t;
      }
    }
    Call call = new Call(req.id(), agent, progressToken, stream, channel);
    if (!channel.register(req.id(), call)) {
      return Future.succeededFuture(
          error(req, JsonRpc.INVALID_REQUEST, "Invalid Request: id already in flight", null, 400));
    }
    running.incrementAndGet();
    Future<JsonObject> answer;
    try {
      answer = tool.call(args.copy(), call);
      if (answer == null) {
        answer = Future.failedFuture(new IllegalStateException(name + " returned no future"));
      }
    } catch (Throwable e) {
      answer = Future.failedFuture(e);
    }
    answer.onComplete(
        done -> {
          try {
            channel.unregister(req.id(), call);
            call.done = true;
            JsonObject result;
            String code = null;
            if (done.succeeded()) {
              result = successResult(name, done.result(), modern);
              if (Boolean.TRUE.equals(result.getBoolean("isError"))) {
                code = ErrorCode.E_CONTEXT_BUDGET.name();
              }
            } else {
              GramException te = toolException(name, done.cause());
              code = te.code().name();
              result = errorResult(ToolErrors.errorObject(te), modern);
            }
            metrics.toolCall(
                name, channel.transport(), System.nanoTime() - start, code, call.cancelled);
            call.reply.tryComplete(Reply.ok(JsonRpc.result(req.id(), result)));
          } catch (RuntimeException e) {
            // Shaping the answer failed (a result that cannot be encoded, say): the caller still
            // gets an answer, never silence.
            LOG.error("{} answer failed", name, e);
            call.reply.tryComplete(error(req, JsonRpc.INTERNAL_ERROR, "Internal error", null, 500));
          } finally {
            // Counted down only after the answer was handed to the transport, so a drain that
            // sees zero knows every answer is already queued for writing.
            running.decrementAndGet();
          }
        });
    return call.reply.future();
  }

  private JsonObject successResult(String tool, JsonObject answer, boolean modern) {
    if (answer == null) {
      LOG.error("{} answered null", tool);
      return errorResult(
          ToolErrors.errorObject(new GramException(ErrorCode.E_INTERNAL, tool + " gave no answer")),
          modern);
    }
    String text = answer.encode();
    int size = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (size > ResponseBudget.BYTES) {
      LOG.warn("{} answer of {} bytes is over the budget", tool, size);
      return errorResult(
          ToolErrors.errorObject(
              new GramException(
                  ErrorCode.E_CONTEXT_BUDGET,
                  "The answer is " + size + " bytes, over the " + ResponseBudget.BYTES
                      + "-byte response budget; ask for less",
                  new JsonObject()
                      .put("budget_bytes", ResponseBudget.BYTES)
                      .put("size_bytes", size))),
          modern);
    }
    JsonObject result =
        new JsonObject()
            .put("content", new JsonArray().add(textContent(text)))
            .put("structuredContent", answer);
    if (modern) {
      result.put("resultType", "complete").put("_meta", serverMeta());
    }
    return result;
  }

  private JsonObject errorResult(JsonObject errorObject, boolean modern) {
    JsonObject result =
        new JsonObject()
            .put("content", new JsonArray().add(textContent(errorObject.encode())))
            .put("structuredContent", errorObject)
            .put("isError", true);
    if (modern) {
      result.put("resultType", "complete").put("_meta", serverMeta());
    }
    return result;
  }

  private static JsonObject textContent(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }

  private static GramException toolException(String tool, Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof GramException te) {
      return te;
    }
    // Never a stack trace to the client: the log has it.
    LOG.error("{} failed", tool, t);
    return new GramException(
        ErrorCode.E_INTERNAL, "Internal error in " + tool + "; the server log has the cause");
  }

  private Reply error(JsonRpc.Request req, int code, String message, Object data, int status) {
    return new Reply(JsonRpc.error(req.id(), code, message, data), status);
  }

  /** One {@code tools/call} in flight: the {@link CallContext} its tool sees. */
  private static final class Call implements CallContext, Channel.InFlight {
    final Object id;
    final String agent;
    final Object progressToken;
    final Consumer<JsonObject> stream;
    final Channel channel;
    final Promise<Reply> reply = Promise.promise();
    volatile boolean cancelled;
    volatile boolean done;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    Call(Object id, String agent, Object progressToken, Consumer<JsonObject> stream,
        Channel channel) {
      this.id = id;
      this.agent = agent;
      this.progressToken = progressToken;
      this.stream = stream;
      this.channel = channel;
    }

    @Override
    public String agent() {
      return agent;
    }

    @Override
    public boolean cancelled() {
      return cancelled;
    }

    @Override
    public void cancel(String reason) {
      cancelled = true;
      LOG.debug("{} request {} cancelled: {}", channel, id, reason);
      // The client stopped waiting: answer nothing, as the specification asks.
      reply.tryComplete(Reply.NONE);
    }

    @Override
    public void progress(double progress, Double total, String message) {
      if (progressToken == null || cancelled || done) {
        return;
      }
      synchronized (this) {
        // Progress must increase; a repeat or a step back would break clients' bookkeeping.
        if (!(progress > lastProgress)) {
          return;
        }
        lastProgress = progress;
      }
      JsonObject params = new JsonObject().put("progressToken", progressToken).put("progress", progress);
      if (total != null) {
        params.put("total", total);
      }
      if (message != null) {
        params.put("message", message);
      }
      stream.accept(JsonRpc.notification("notifications/progress", params));
    }
  }

  /** Tool calls still running, including cancelled ones whose tool has not finished yet. */
  public int running() {
    return running.get();
  }

  /**
   * Completes once every running tool call has finished (so writes reach the store), or after
   * {@code timeout}, whichever comes first.
   */
  public Future<Void> drain(Duration timeout) {
    Promise<Void> done = Promise.promise();
    long deadline = System.nanoTime() + timeout.toNanos();
    poll(done, deadline);
    return done.future();
  }

  private void poll(Promise<Void> done, long deadline) {
    if (running.get() == 0) {
      done.tryComplete();
      return;
    }
    if (System.nanoTime() > deadline) {
      LOG.warn("{} tool calls still running at shutdown", running.get());
      done.tryComplete();
      return;
    }
    vertx.setTimer(20, t -> poll(done, deadline));
  }
}
