package dev.gram.transport;

import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.Reply;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * How a reply goes out as one HTTP response, for both HTTP transports. The one place that turns
 * the protocol's outcomes into HTTP statuses (the protocol says what happened, this says what that
 * is in HTTP); errors the transports find themselves (an unknown session, a header that contradicts
 * the body) come with the status their transport chose.
 */
final class HttpReplies {
  private HttpReplies() {}

  /**
   * The HTTP status of a reply sent as a plain response (not in an SSE stream, whose status is
   * always 200). Results and errors a method answered with are 200, as JSON-RPC over HTTP has it;
   * a message refused before any method ran is 400; a 2026-07-28 request for a method we do not
   * have is 404; a server fault is 500. With nothing to send: a taken notification or response is
   * 202 (Accepted), a cancelled request 204, since the client no longer waits for an answer.
   */
  static int status(Reply reply) {
    if (reply instanceof Reply.Error error) {
      return switch (error.kind()) {
        case INVALID_MESSAGE -> 400;
        case UNKNOWN_METHOD -> 404;
        case METHOD_ERROR -> 200;
        case INTERNAL -> 500;
      };
    }
    if (reply instanceof Reply.Accepted) {
      return 202;
    }
    if (reply instanceof Reply.Cancelled) {
      return 204;
    }
    return 200;
  }

  /** An error this transport found itself (sessions, headers), with the status it chose. */
  static void sendError(RoutingContext ctx, int status, Object id, int code, String message) {
    send(ctx, status, JsonRpc.error(id, code, message));
  }

  static void send(RoutingContext ctx, Reply reply) {
    send(ctx, status(reply), reply.encoded());
  }

  private static void send(RoutingContext ctx, int status, JsonObject message) {
    send(ctx, status, message == null ? null : message.encode());
  }

  private static void send(RoutingContext ctx, int status, String message) {
    HttpServerResponse response = ctx.response();
    if (response.ended() || response.closed()) {
      return;
    }
    if (message == null) {
      response.setStatusCode(status).end();
      return;
    }
    response
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(message);
  }
}
