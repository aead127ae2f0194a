package dev.gram.tools;

import io.vertx.core.json.JsonObject;

/**
 * A tool failure the caller can act on: it becomes a tool result with {@code isError: true} and
 * {@code structuredContent: {"error": {code, message, details}}}, never a JSON-RPC error.
 *
 * <p>Codes and messages are the contract's (see {@link ErrorCode}); {@code details} carries what
 * the caller needs to recover, such as the current {@code rev} and {@code hash} of a document.
 */
public final class ToolException extends RuntimeException {
  private final ErrorCode code;
  private final JsonObject details;

  public ToolException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public ToolException(ErrorCode code, String message, JsonObject details) {
    super(message, null, false, false);
    this.code = code;
    this.details = details;
  }

  public ErrorCode code() {
    return code;
  }

  /** Details for the caller, or {@code null} when there are none. */
  public JsonObject details() {
    return details;
  }

  /** The {@code {"error": {...}}} object that goes into a tool result. */
  public JsonObject toErrorObject() {
    JsonObject error = new JsonObject().put("code", code.name()).put("message", getMessage());
    if (details != null && !details.isEmpty()) {
      error.put("details", details);
    }
    return new JsonObject().put("error", error);
  }
}
