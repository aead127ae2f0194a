package dev.gram.transport;

import dev.gram.access.Identity;
import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.Outbound;
import dev.gram.protocol.ProtocolVersions;
import dev.gram.protocol.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The MCP endpoint ({@code /mcp}) of the Streamable HTTP transport, serving both eras at once.
 *
 * <p><b>Legacy (2025-03-26 … 2025-11-25).</b> {@code initialize} without a session opens one and
 * answers with {@code Mcp-Session-Id}; every later POST, GET and DELETE names it. An unknown or
 * ended session gets 404, a missing one 400. GET opens the session's SSE stream, which carries the
 * session's resource notifications (and keep-alives); DELETE ends the session and its
 * subscriptions.
 *
 * <p><b>Modern (2026-07-28).</b> A POST whose body carries {@code _meta.
 * io.modelcontextprotocol/protocolVersion}, or whose {@code MCP-Protocol-Version} header names a
 * modern version, stands alone: no session. Its {@code MCP-Protocol-Version}, {@code Mcp-Method}
 * and (for {@code tools/call}) {@code Mcp-Name} headers must match the body, else 400 with -32020.
 * Closing the response cancels the request.
 *
 * <p>Either era: a notification or response gets 202 with no body; a request is answered as one
 * JSON object, or as an SSE stream when the client accepts one and asked for progress (or opened
 * {@code subscriptions/listen}); an unsupported {@code MCP-Protocol-Version} gets 400 with -32022.
 * The dispatcher says what kind of outcome a reply is; {@link HttpReplies#status} turns that into
 * an HTTP status.
 */
final class StreamableHttp {
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String VERSION_HEADER = ModernHeaders.VERSION_HEADER;

  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * A legacy session: its channel and the GET streams open on it. What the server sends unasked
   * (a subscription's notifications) goes out on one of its GET streams; with none open it is
   * dropped, as notifications are hints and the document's history is the record.
   */
  static final class Session implements Outbound {
    final Channel channel;
    final Set<SseStream> streams = ConcurrentHashMap.newKeySet();

    Session(String id) {
      this.channel = new Channel("http", id, this);
    }

    private SseStream stream() {
      for (SseStream s : streams) {
        if (!s.ended()) {
          return s;
        }
      }
      return null;
    }

    @Override
    public void accept(JsonObject message) {
      SseStream s = stream();
      if (s != null) {
        s.message(message);
      }
    }

    @Override
    public void sendEncoded(java.util.List<String> messages) {
      SseStream s = stream();
      if (s != null) {
        s.sendEncoded(messages);
      }
    }

    @Override
    public boolean congested() {
      SseStream s = stream();
      return s != null && s.congested();
    }

    @Override
    public java.util.concurrent.Executor executor() {
      SseStream s = stream();
      return s == null ? null : s.executor();
    }
  }

  private final Vertx vertx;
  private final McpDispatcher dispatcher;
  private final long keepAliveMs;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  StreamableHttp(Vertx vertx, McpDispatcher dispatcher, long keepAliveMs) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.keepAliveMs = keepAliveMs;
  }

  int openSessions() {
    return sessions.size();
  }

  static String newId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  // ------------------------------------------------------------------ POST

  void post(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    String versionHeader = req.getHeader(VERSION_HEADER);
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    JsonRpc.Message msg =
        body == null || body.length() == 0
            ? new JsonRpc.Invalid(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: empty body"))
            : JsonRpc.parse(body);
    // Checked after parsing, so that the refusal carries the request's id as every error must.
    if (versionHeader != null && !ProtocolVersions.isSupported(versionHeader)) {
      HttpReplies.send(ctx, ProtocolVersions.unsupported(idOf(msg), versionHeader));
      return;
    }
    Identity caller = HttpAuth.identity(ctx);
    if (msg instanceof JsonRpc.Invalid) {
      dispatcher
          .handle(msg, new Channel("http", "invalid", m -> {}))
          .onSuccess(r -> HttpReplies.send(ctx, r));
      return;
    }
    String sessionId = req.getHeader(SESSION_HEADER);
    boolean initialize = msg instanceof JsonRpc.Request r && "initialize".equals(r.method());
    String metaVersion = ModernHeaders.metaVersion(msg);
    if (metaVersion != null && ProtocolVersions.isModern(metaVersion)) {
      // Modern requests stand alone: a session header on one is ignored, as 2026-07-28 asks.
      sessionId = null;
    }
    if (sessionId != null) {
      Session session = session(sessionId, caller);
      if (session == null) {
        HttpReplies.sendError(ctx, 404, idOf(msg), JsonRpc.INVALID_REQUEST, "Session not found");
        return;
      }
      answer(ctx, msg, session.channel, false);
      return;
    }
    if (initialize
        && (ProtocolVersions.isModern(String.valueOf(versionHeader))
            || (metaVersion != null && ProtocolVersions.isModern(metaVersion)))) {
      // 2026-07-28 removed initialize: a client speaking it gets "no such method", not a session.
      HttpReplies.sendError(ctx, 404, idOf(msg), JsonRpc.METHOD_NOT_FOUND, "Method not found: initialize");
      return;
    }
    if (initialize) {
      String id = newId();
      Session session = new Session(id);
      session.channel.caller(caller);
      sessions.put(id, session);
      dispatcher
          .handle(msg, session.channel)
          .onSuccess(
              reply -> {
                if (reply instanceof Reply.Error) {
                  sessions.remove(id);
                } else {
                  ctx.response().putHeader(SESSION_HEADER, id);
                }
                HttpReplies.send(ctx, reply);
              });
      return;
    }
    boolean modern =
        metaVersion != null || (versionHeader != null && ProtocolVersions.isModern(versionHeader));
    if (!modern) {
      HttpReplies.sendError(ctx, 400, idOf(msg), JsonRpc.INVALID_REQUEST,
          "Bad Request: " + SESSION_HEADER + " header is required (send initialize first, or use "
              + ProtocolVersions.MODERN.get(0) + " per-request _meta)");
      return;
    }
    String mismatch = ModernHeaders.mismatch(req, msg, versionHeader, metaVersion);
    if (mismatch != null) {
      HttpReplies.sendError(
          ctx, 400, idOf(msg), JsonRpc.HEADER_MISMATCH, "Header mismatch: " + mismatch);
      return;
    }
    // A modern request is its own channel: closing its response is its cancellation.
    Channel channel = new Channel("http", "request", m -> {});
    channel.caller(caller);
    answer(ctx, msg, channel, true);
  }

  /**
   * The session of that id when {@code caller} is the caller who opened it, else null: a session
   * id alone lets nobody act as another agent (a stranger's request gets the same 404 as for an
   * unknown session). The caller's latest proof replaces the one before (a refreshed token).
   */
  private Session session(String id, Identity caller) {
    Session session = sessions.get(id);
    if (session == null || !caller.sameCaller(session.channel.caller())) {
      return null;
    }
    session.channel.caller(caller);
    return session;
  }

  private void answer(RoutingContext ctx, JsonRpc.Message msg, Channel channel, boolean modern) {
    if (!(msg instanceof JsonRpc.Request request)) {
      dispatcher.handle(msg, channel).onSuccess(r -> HttpReplies.send(ctx, r));
      return;
    }
    HttpServerResponse response = ctx.response();
    boolean stream =
        accepts(ctx.request(), "text/event-stream")
            && ("subscriptions/listen".equals(request.method()) || hasProgressToken(request));
    SseStream sse = stream ? new SseStream(vertx, response, keepAliveMs) : null;
    Consumer<JsonObject> notifications = sse == null ? m -> {} : sse;
    if (modern) {
      response.closeHandler(v -> channel.close("response stream closed"));
    }
    dispatcher
        .handle(msg, channel, notifications)
        .onSuccess(
            reply -> {
              if (sse != null && sse.started()) {
                // The status went out with the first event; only the answer is left to send.
                if (!reply.isNone()) {
                  sse.message(reply.encoded());
                }
                sse.end();
              } else {
                HttpReplies.send(ctx, reply);
              }
            });
  }

  // ------------------------------------------------------------------ GET and DELETE

  /** A supported {@code MCP-Protocol-Version} or none; otherwise answers 400 and returns false. */
  private static boolean versionOk(RoutingContext ctx) {
    String v = ctx.request().getHeader(VERSION_HEADER);
    if (v != null && !ProtocolVersions.isSupported(v)) {
      HttpReplies.send(ctx, ProtocolVersions.unsupported(null, v));
      return false;
    }
    return true;
  }

  void get(RoutingContext ctx) {
    if (!versionOk(ctx)) {
      return;
    }
    String sessionId = ctx.request().getHeader(SESSION_HEADER);
    if (sessionId == null) {
      // Modern clients have no standalone stream; legacy ones open it after initialize.
      ctx.response().setStatusCode(405).putHeader("Allow", "POST, DELETE").end();
      return;
    }
    Session session = session(sessionId, HttpAuth.identity(ctx));
    if (session == null) {
      HttpReplies.sendError(ctx, 404, null, JsonRpc.INVALID_REQUEST, "Session not found");
      return;
    }
    SseStream sse = new SseStream(vertx, ctx.response(), keepAliveMs);
    session.streams.add(sse);
    ctx.response()
        .closeHandler(
            v -> {
              session.streams.remove(sse);
              sse.end();
            });
    sse.open();
  }

  void delete(RoutingContext ctx) {
    if (!versionOk(ctx)) {
      return;
    }
    String sessionId = ctx.request().getHeader(SESSION_HEADER);
    if (sessionId == null) {
      HttpReplies.sendError(ctx, 400, null, JsonRpc.INVALID_REQUEST,
          "Bad Request: " + SESSION_HEADER + " header is required");
      return;
    }
    Session session = session(sessionId, HttpAuth.identity(ctx));
    if (session != null) {
      sessions.remove(sessionId, session);
    }
    if (session == null) {
      HttpReplies.sendError(ctx, 404, null, JsonRpc.INVALID_REQUEST, "Session not found");
      return;
    }
    end(session, "session deleted");
    ctx.response().setStatusCode(204).end();
  }

  private static void end(Session session, String reason) {
    session.channel.close(reason);
    for (SseStream s : List.copyOf(session.streams)) {
      s.end();
    }
    session.streams.clear();
  }

  /** Ends sessions nobody has used for {@code maxIdleMs}; open GET streams keep a session alive. */
  void expire(long maxIdleMs) {
    long now = System.currentTimeMillis();
    sessions.entrySet().removeIf(
        e -> {
          Session s = e.getValue();
          if (!s.streams.isEmpty()) {
            s.channel.touch();
            return false;
          }
          if (now - s.channel.lastUsedMillis() > maxIdleMs && s.channel.inFlightCount() == 0) {
            end(s, "session expired");
            return true;
          }
          return false;
        });
  }

  /** Shutdown: end every GET stream; sessions stay so in-flight answers still arrive. */
  void endStreams() {
    for (Session s : sessions.values()) {
      for (SseStream stream : List.copyOf(s.streams)) {
        stream.end();
      }
      s.streams.clear();
    }
  }

  // ------------------------------------------------------------------ helpers

  private static boolean hasProgressToken(JsonRpc.Request r) {
    return r.params().getValue("_meta") instanceof JsonObject meta
        && meta.getValue("progressToken") != null;
  }

  private static boolean accepts(HttpServerRequest req, String type) {
    String accept = req.getHeader("Accept");
    return accept != null && accept.contains(type);
  }

  private static Object idOf(JsonRpc.Message msg) {
    return msg instanceof JsonRpc.Request r ? r.id() : null;
  }
}
