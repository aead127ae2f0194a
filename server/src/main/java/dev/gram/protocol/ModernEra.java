package dev.gram.protocol;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;

/**
 * What a 2026-07-28 request needs besides its method: its {@code _meta} checked (the version was
 * already read by {@link RequestEra}; the client's capabilities must be declared), its agent named
 * from {@code _meta.clientInfo}, and the era's own method, {@code server/discover}.
 */
final class ModernEra {
  /**
   * How long clients may cache the tool list and the discovery answer: tools never change while
   * the server runs.
   */
  static final long LIST_TTL_MS = 300_000;

  private final ServerInfo info;
  private final boolean resourcesAndPrompts;

  ModernEra(ServerInfo info, boolean resourcesAndPrompts) {
    this.info = info;
    this.resourcesAndPrompts = resourcesAndPrompts;
  }

  /** The refusal of a request whose {@code _meta} is incomplete; {@code null} when it is fine. */
  static Reply checkMeta(JsonRpc.Request req, JsonObject meta) {
    if (meta.getValue(MetaKeys.CLIENT_CAPABILITIES) instanceof JsonObject) {
      return null;
    }
    return Reply.error(
        req.id(),
        JsonRpc.INVALID_PARAMS,
        "Invalid params: _meta." + MetaKeys.CLIENT_CAPABILITIES + " is required",
        Reply.ErrorKind.INVALID_MESSAGE);
  }

  /** The agent a request's tool call is recorded as: the client's name, else the transport. */
  static String agent(JsonObject meta, Channel channel) {
    if (meta.getValue(MetaKeys.CLIENT_INFO) instanceof JsonObject clientInfo
        && clientInfo.getValue("name") instanceof String name
        && !name.isBlank()) {
      return name;
    }
    return channel.transport();
  }

  Reply discover(JsonRpc.Request req) {
    JsonObject result =
        new JsonObject()
            .put("resultType", "complete")
            .put("supportedVersions", new JsonArray(new ArrayList<>(ProtocolVersions.ALL)))
            .put("capabilities", ServerInfo.capabilities(resourcesAndPrompts));
    if (info.instructions() != null) {
      result.put("instructions", info.instructions());
    }
    result
        .put("ttlMs", LIST_TTL_MS)
        .put("cacheScope", "public")
        .put("_meta", info.resultMeta());
    return Reply.result(req.id(), result);
  }
}
