package dev.gram.protocol;

import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;

/**
 * How a {@link GramException} reaches a client: a tool result whose {@code structuredContent} is
 * {@code {"error": {code, message, details}}}, never a JSON-RPC error. The layer that raised the
 * error chose its code, message and details; this is the one place that gives them their shape.
 */
final class ToolErrors {
  private ToolErrors() {}

  /** The {@code {"error": {...}}} object that goes into a tool result. */
  static JsonObject errorObject(GramException e) {
    JsonObject error = new JsonObject().put("code", e.code().name()).put("message", e.getMessage());
    if (e.details() != null && !e.details().isEmpty()) {
      error.put("details", e.details());
    }
    return new JsonObject().put("error", error);
  }
}
