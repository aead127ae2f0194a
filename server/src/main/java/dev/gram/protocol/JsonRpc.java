package dev.gram.protocol;

import dev.gram.base.CompactJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * JSON-RPC 2.0 as MCP uses it: the error codes, the message shapes, and a parser that turns any
 * line or body into exactly one {@link Message}, never an exception.
 */
public final class JsonRpc {
  private JsonRpc() {}

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;
  /** MCP 2026-07-28: HTTP headers disagree with the body, or a required header is missing. */
  public static final int HEADER_MISMATCH = -32020;
  /** MCP 2026-07-28: the request needs a client capability the client did not declare. */
  public static final int MISSING_CLIENT_CAPABILITY = -32021;
  /** MCP 2026-07-28: the request's protocol version is not one this server speaks. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  /** One incoming message, already classified. */
  public sealed interface Message {}

  /** A call that expects an answer. {@code id} is a String or a Number, never null. */
  public record Request(Object id, String method, JsonObject params) implements Message {}

  /** A one-way message. */
  public record Notification(String method, JsonObject params) implements Message {}

  /** An answer from the client to a server request; this server sends none, so these are dropped. */
  public record Response(Object id) implements Message {}

  /**
   * Something that is not a valid message. {@code error} is the complete error response to send,
   * carrying the id when one could be read.
   */
  public record Invalid(JsonObject error) implements Message {}

  public static Message parse(Buffer bytes) {
    Object decoded;
    try {
      decoded = Json.decodeValue(bytes);
    } catch (DecodeException | IllegalStateException e) {
      return new Invalid(error(null, PARSE_ERROR, "Parse error: not valid JSON"));
    }
    if (decoded instanceof JsonObject msg && msg.getValue("id") instanceof Number n && !echoable(n, bytes)) {
      // An id must go back exactly as it came. 1E2 would come back as 100.0, 1e400 as a string,
      // -0 as 0: such ids are refused rather than answered under another id.
      return new Invalid(
          error(null, INVALID_REQUEST, "Invalid Request: a numeric id must be an integer written in digits"));
    }
    return classify(decoded);
  }

  /**
   * Whether a numeric id encodes back to the text it was read from: integers do, except a
   * negative zero, which only the raw text shows.
   */
  private static boolean echoable(Number n, Buffer bytes) {
    if (!(n instanceof Integer || n instanceof Long || n instanceof java.math.BigInteger)) {
      return false;
    }
    return n.longValue() != 0 || !negativeZeroId(bytes);
  }

  /** Thread-safe once configured; made once, since SDK clients number their first request 0. */
  private static final com.fasterxml.jackson.core.JsonFactory ID_SCANNER =
      new com.fasterxml.jackson.core.JsonFactory();

  private static boolean negativeZeroId(Buffer bytes) {
    try (com.fasterxml.jackson.core.JsonParser p = ID_SCANNER.createParser(bytes.getBytes())) {
      if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
        return false;
      }
      // The last "id" member wins, as it does when the message is decoded.
      boolean negative = false;
      while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        if ("id".equals(name)) {
          negative = p.getText().startsWith("-");
        }
        p.skipChildren();
      }
      return negative;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  public static Message parse(String line) {
    return parse(Buffer.buffer(line));
  }

  static Message classify(Object decoded) {
    if (decoded instanceof JsonArray) {
      // Batches were removed from MCP in 2025-06-18 and no current client sends them.
      return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: batches are not supported"));
    }
    if (!(decoded instanceof JsonObject msg)) {
      return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: not a JSON object"));
    }
    Object id = msg.getValue("id");
    boolean hasId = msg.containsKey("id");
    boolean idOk = id instanceof String || id instanceof Number;
    Object echoId = idOk ? id : null;
    if (!"2.0".equals(msg.getValue("jsonrpc"))) {
      return new Invalid(error(echoId, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\""));
    }
    if (msg.containsKey("method")) {
      if (!(msg.getValue("method") instanceof String method) || method.isEmpty()) {
        return new Invalid(error(echoId, INVALID_REQUEST, "Invalid Request: method must be a string"));
      }
      Object params = msg.getValue("params");
      if (params != null && !(params instanceof JsonObject)) {
        if (!hasId) {
          return new Notification(method, new JsonObject());
        }
        return new Invalid(error(echoId, INVALID_PARAMS, "Invalid params: params must be an object"));
      }
      JsonObject p = params == null ? new JsonObject() : (JsonObject) params;
      if (!hasId) {
        return new Notification(method, p);
      }
      if (!idOk) {
        return new Invalid(
            error(null, INVALID_REQUEST, "Invalid Request: id must be a string or a number"));
      }
      return new Request(id, method, p);
    }
    if (hasId && (msg.containsKey("result") || msg.containsKey("error"))) {
      return new Response(id);
    }
    return new Invalid(error(echoId, INVALID_REQUEST, "Invalid Request: no method"));
  }

  public static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  /**
   * The text of {@code result(id, result).encode()}, byte for byte, with each member of {@code
   * result} named in {@code rawMembers} written as the compact JSON given there, computed before,
   * instead of being encoded again.
   */
  public static String encodeResult(Object id, JsonObject result, Map<String, String> rawMembers) {
    int size = 64;
    for (String raw : rawMembers.values()) {
      size += raw.length();
    }
    StringBuilder out = new StringBuilder(size + 256);
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    CompactJson.write(id, out);
    out.append(",\"result\":{");
    boolean first = true;
    for (Map.Entry<String, Object> e : result.getMap().entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      CompactJson.string(e.getKey(), out);
      out.append(':');
      String raw = rawMembers.get(e.getKey());
      if (raw != null) {
        out.append(raw);
      } else {
        CompactJson.write(e.getValue(), out);
      }
    }
    return out.append("}}").toString();
  }

  public static JsonObject error(Object id, int code, String message) {
    return error(id, code, message, null);
  }

  public static JsonObject error(Object id, int code, String message, Object data) {
    JsonObject err = new JsonObject().put("code", code).put("message", message);
    if (data != null) {
      err.put("data", data);
    }
    // JSON-RPC wants "id": null when the id could not be read, not a missing member.
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", err);
  }

  public static JsonObject notification(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
  }

  /** The error code of an error response, or 0 for anything else. */
  public static int errorCode(JsonObject message) {
    JsonObject err = message == null ? null : message.getJsonObject("error");
    return err == null ? 0 : err.getInteger("code", 0);
  }
}
