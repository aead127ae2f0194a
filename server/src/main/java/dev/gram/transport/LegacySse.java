package dev.gram.transport;

import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP+SSE transport of MCP 2024-11-05, for clients that never moved on. {@code GET /sse}
 * opens a stream whose first event, {@code endpoint}, names a relative URI to POST messages to;
 * each POST is accepted with 202 and its answer comes back on the stream as a {@code message}
 * event. The stream is the session: when it closes, the session and its calls end.
 */
final class LegacySse {
  static final String MESSAGE_PATH = "/message";

  private final Vertx vertx;
  private final McpDispatcher dispatcher;
  private final long keepAliveMs;
  private final Map<String, Connection> connections = new ConcurrentHashMap<>();

  private record Connection(Channel channel, SseStream stream) {}

  LegacySse(Vertx vertx, McpDispatcher dispatcher, long keepAliveMs) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.keepAliveMs = keepAliveMs;
  }

  int openSessions() {
    return connections.size();
  }

  void open(RoutingContext ctx) {
    String id = StreamableHttp.newId();
    SseStream stream = new SseStream(vertx, ctx.response(), keepAliveMs);
    Channel channel = new Channel("sse", id, stream);
    channel.caller(HttpAuth.identity(ctx));
    connections.put(id, new Connection(channel, stream));
    ctx.response()
        .closeHandler(
            v -> {
              connections.remove(id);
              channel.close("SSE stream closed");
              stream.end();
            });
    stream.event("endpoint", MESSAGE_PATH + "?sessionId=" + id);
  }

  void post(RoutingContext ctx) {
    String id = ctx.request().getParam("sessionId");
    Connection found = id == null ? null : connections.get(id);
    // Another caller's connection is as unknown to this one as a connection that never was.
    Connection conn =
        found != null && HttpAuth.identity(ctx).sameCaller(found.channel().caller()) ? found : null;
    if (conn != null) {
      conn.channel().caller(HttpAuth.identity(ctx));
    }
    if (conn == null) {
      HttpReplies.sendError(ctx, 404, null, JsonRpc.INVALID_REQUEST, "Session not found");
      return;
    }
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    JsonRpc.Message msg =
        body == null || body.length() == 0
            ? new JsonRpc.Invalid(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: empty body"))
            : JsonRpc.parse(body);
    if (msg instanceof JsonRpc.Invalid) {
      dispatcher.handle(msg, conn.channel()).onSuccess(r -> HttpReplies.send(ctx, r));
      return;
    }
    ctx.response().setStatusCode(202).end();
    dispatcher
        .handle(msg, conn.channel())
        .onSuccess(
            reply -> {
              if (!reply.isNone()) {
                conn.stream().message(reply.encoded());
              }
            });
  }

  void endAll() {
    for (Connection c : List.copyOf(connections.values())) {
      c.stream().end();
    }
  }
}
