package dev.gram.protocol;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;

/**
 * How a refused resource, subscription or prompt request is answered: a JSON-RPC error (these are
 * not tool calls), whose {@code data} carries the contract's error object ({@code code}, e.g.
 * {@code E_PATH}, and {@code details}) so an agent sees the same codes as from the tools. A
 * document that does not exist is MCP's resource-not-found, -32002.
 */
final class ResourceErrors {
  static final int RESOURCE_NOT_FOUND = -32002;

  private ResourceErrors() {}

  static Reply of(Object id, Throwable failure) {
    GramException e = ToolResults.toolError("resources", failure);
    JsonObject data = ToolErrors.errorObject(e).getJsonObject("error");
    boolean notFound =
        e.details() != null && "not_found".equals(e.details().getString("reason"));
    if (e.code() == ErrorCode.E_INTERNAL) {
      return Reply.error(id, JsonRpc.INTERNAL_ERROR, e.getMessage(), data, Reply.ErrorKind.INTERNAL);
    }
    return Reply.error(
        id,
        notFound ? RESOURCE_NOT_FOUND : JsonRpc.INVALID_PARAMS,
        e.getMessage(),
        data,
        Reply.ErrorKind.METHOD_ERROR);
  }
}
