package dev.gram.protocol;

import dev.gram.access.Identity;
import dev.gram.tools.spi.Resources;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Answers {@code resources/list}, {@code resources/templates/list} and {@code resources/read} in
 * both eras from a {@link Resources}. Bad input is a JSON-RPC error carrying the contract's code
 * ({@link ResourceErrors}); 2026-07-28 results carry the caching hints ({@link CacheHints}).
 */
final class ResourcesMethods {
  private final Resources resources;
  private final ServerInfo info;
  private final Refusals refusals;

  ResourcesMethods(Resources resources, ServerInfo info, ProtocolMetrics metrics) {
    this.resources = resources;
    this.info = info;
    this.refusals = new Refusals(metrics);
  }

  Future<Reply> list(JsonRpc.Request req, Era era, Identity caller) {
    Object cursor = req.params().getValue("cursor");
    if (cursor != null && !(cursor instanceof String)) {
      return Future.succeededFuture(invalid(req, "cursor must be a string"));
    }
    return resources
        .as(caller)
        .list((String) cursor)
        .map(
            page -> {
              JsonArray items = new JsonArray();
              for (Resources.ResourceEntry e : page.resources()) {
                JsonObject item =
                    new JsonObject()
                        .put("uri", e.uri())
                        .put("name", e.name())
                        .put("title", e.title())
                        .put("description", e.description())
                        .put("mimeType", e.mimeType());
                if (e.size() >= 0) {
                  item.put("size", e.size());
                }
                items.add(item);
              }
              JsonObject result = new JsonObject().put("resources", items);
              if (page.nextCursor() != null) {
                result.put("nextCursor", page.nextCursor());
              }
              return Reply.result(req.id(), CacheHints.documents(result, era, info));
            })
        .otherwise(e -> {
          refusals.note("resources/list", caller, e);
          return ResourceErrors.of(req.id(), e);
        });
  }

  Reply templates(JsonRpc.Request req, Era era, Identity caller) {
    if (req.params().getValue("cursor") != null) {
      return Reply.error(
          req.id(), JsonRpc.INVALID_PARAMS, "Invalid params: unknown cursor",
          Reply.ErrorKind.METHOD_ERROR);
    }
    JsonArray items = new JsonArray();
    for (Resources.ResourceTemplate t : resources.as(caller).templates()) {
      items.add(
          new JsonObject()
              .put("uriTemplate", t.uriTemplate())
              .put("name", t.name())
              .put("title", t.title())
              .put("description", t.description())
              .put("mimeType", t.mimeType()));
    }
    return Reply.result(
        req.id(), CacheHints.stable(new JsonObject().put("resourceTemplates", items), era, info));
  }

  Future<Reply> read(JsonRpc.Request req, Era era, Identity caller) {
    if (!(req.params().getValue("uri") instanceof String uri)) {
      return Future.succeededFuture(invalid(req, "uri must be a string"));
    }
    return resources
        .as(caller)
        .read(uri)
        .map(
            contents -> {
              JsonArray items = new JsonArray();
              for (Resources.ResourceContent c : contents) {
                items.add(
                    new JsonObject()
                        .put("uri", c.uri())
                        .put("mimeType", c.mimeType())
                        .put("text", c.text()));
              }
              JsonObject result = new JsonObject().put("contents", items);
              return Reply.result(req.id(), CacheHints.documents(result, era, info));
            })
        .otherwise(e -> {
          refusals.note("resources/read", caller, e);
          return ResourceErrors.of(req.id(), e);
        });
  }

  static Reply invalid(JsonRpc.Request req, String message) {
    return Reply.error(
        req.id(), JsonRpc.INVALID_PARAMS, "Invalid params: " + message,
        Reply.ErrorKind.METHOD_ERROR);
  }
}
