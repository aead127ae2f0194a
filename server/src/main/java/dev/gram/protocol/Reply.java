package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/**
 * The dispatcher's answer to one message: the JSON-RPC message to send back (or none), and the
 * HTTP status the Streamable HTTP transport should use for it. Other transports ignore the status.
 */
public record Reply(JsonObject message, int httpStatus) {

  /** Nothing to send: a notification, a client response, or a cancelled request. */
  public static final Reply NONE = new Reply(null, 202);

  public static Reply ok(JsonObject message) {
    return new Reply(message, 200);
  }

  public boolean isNone() {
    return message == null;
  }
}
