package dev.gram.protocol;

import dev.gram.base.CompactJson;
import io.vertx.core.json.JsonObject;

/**
 * What the dispatcher made of one message, in the protocol's terms: a result, a JSON-RPC error of
 * some {@link ErrorKind}, or nothing to send and why. It names no HTTP status: each transport
 * decides what an outcome means on its wire (stdio and legacy SSE only send the message; Streamable
 * HTTP also picks a status from the outcome).
 */
public sealed interface Reply {

  /** A notification or a client's response was taken; there is nothing to answer. */
  Reply ACCEPTED = new Accepted();

  /** The request was cancelled; the specification asks for no answer at all. */
  Reply CANCELLED = new Cancelled();

  /** The JSON-RPC message to send back, or {@code null} when there is none. */
  JsonObject message();

  default boolean isNone() {
    return message() == null;
  }

  /** The JSON text of {@link #message()}, as every transport writes it; null when there is none. */
  default String encoded() {
    JsonObject m = message();
    return m == null ? null : CompactJson.encode(m);
  }

  /**
   * A JSON-RPC result answering a request.
   *
   * @param knownText the text of {@code message}, when whoever built it had it already (a tool's
   *     answer is encoded once, for its text content and the budget, and that text is spliced in
   *     here rather than encoded again); null to encode {@code message} when it is written
   */
  record Result(JsonObject message, String knownText) implements Reply {
    public Result(JsonObject message) {
      this(message, null);
    }

    @Override
    public String encoded() {
      return knownText != null ? knownText : CompactJson.encode(message);
    }
  }

  /** A JSON-RPC error response, with the kind of failure it reports. */
  record Error(JsonObject message, ErrorKind kind) implements Reply {}

  /** Nothing to send: a notification or a client's response was taken. */
  record Accepted() implements Reply {
    @Override
    public JsonObject message() {
      return null;
    }
  }

  /** Nothing to send: the client cancelled the request, or its stream went away. */
  record Cancelled() implements Reply {
    @Override
    public JsonObject message() {
      return null;
    }
  }

  /** What a JSON-RPC error says about the request it answers. */
  enum ErrorKind {
    /**
     * Refused before any method ran: the message is not valid JSON-RPC, its protocol version or
     * {@code _meta} cannot be served, it comes out of order in the handshake, or its id is already
     * in flight.
     */
    INVALID_MESSAGE,
    /** A 2026-07-28 request for a method this server does not serve. */
    UNKNOWN_METHOD,
    /**
     * The request was taken and the error is its answer: the method refused its parameters (an
     * unknown tool or cursor, arguments that are not an object), or a legacy session does not know
     * the method, which the legacy eras report like any other error of an accepted request.
     */
    METHOD_ERROR,
    /** The server failed while answering; the log has the cause. */
    INTERNAL
  }

  static Reply result(Object id, JsonObject result) {
    return new Result(JsonRpc.result(id, result));
  }

  static Reply error(Object id, int code, String message, Object data, ErrorKind kind) {
    return new Error(JsonRpc.error(id, code, message, data), kind);
  }

  static Reply error(Object id, int code, String message, ErrorKind kind) {
    return error(id, code, message, null, kind);
  }
}
