package dev.gram.testing;

import io.vertx.core.json.JsonObject;

/**
 * A tool's answer as a client sees it: the structured content, and whether it is an error. For an
 * error, {@link #code()} and {@link #message()} read {@code error.code} and {@code
 * error.message}.
 */
public record ToolResult(JsonObject structured, boolean isError) {
  public String code() {
    return isError ? structured.getJsonObject("error").getString("code") : null;
  }

  public String message() {
    return isError ? structured.getJsonObject("error").getString("message") : null;
  }

  public JsonObject details() {
    return isError ? structured.getJsonObject("error").getJsonObject("details") : null;
  }

  /** The structured content of a success; fails the test with the error otherwise. */
  public JsonObject ok() {
    if (isError) {
      throw new AssertionError("expected success, got " + structured.encode());
    }
    return structured;
  }
}
