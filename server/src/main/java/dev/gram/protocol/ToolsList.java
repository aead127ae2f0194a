package dev.gram.protocol;

import dev.gram.tools.spi.Tool;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Answers {@code tools/list}. The definitions are built once: the tools and their schemas never
 * change while the server runs, which is also why 2026-07-28 clients may cache the list.
 */
final class ToolsList {
  private final JsonArray definitions;
  private final ServerInfo info;

  ToolsList(List<Tool> tools, ServerInfo info) {
    this.definitions = definitions(tools);
    this.info = info;
  }

  Reply list(JsonRpc.Request req, Era era) {
    if (req.params().getValue("cursor") != null) {
      // The whole list fits one page, so we never hand out a cursor.
      return Reply.error(
          req.id(), JsonRpc.INVALID_PARAMS, "Invalid params: unknown cursor",
          Reply.ErrorKind.METHOD_ERROR);
    }
    JsonObject result = new JsonObject().put("tools", definitions.copy());
    if (era == Era.MODERN) {
      result
          .put("resultType", "complete")
          .put("ttlMs", ModernEra.LIST_TTL_MS)
          .put("cacheScope", "public")
          .put("_meta", info.resultMeta());
    }
    return Reply.result(req.id(), result);
  }

  private static JsonArray definitions(List<Tool> tools) {
    JsonArray out = new JsonArray();
    for (Tool t : tools) {
      JsonObject annotations =
          new JsonObject()
              .put("readOnlyHint", t.readOnly())
              // Writes keep every revision in the document, so none is destructive.
              .put("destructiveHint", false)
              .put("idempotentHint", t.idempotent())
              .put("openWorldHint", false);
      out.add(
          new JsonObject()
              .put("name", t.name())
              .put("description", t.description())
              .put("inputSchema", t.inputSchema().copy())
              .put("annotations", annotations));
    }
    return out;
  }
}
