package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/**
 * The legacy eras' lifecycle (2024-11-05 to 2025-11-25): {@code initialize} records a {@link
 * Channel.Handshake} on the channel and settles the version, {@code notifications/initialized}
 * marks the channel ready, and {@code ping} is answered at any time, even before {@code
 * initialize}, because legacy clients send it then.
 */
final class LegacyHandshake {
  private final ServerInfo info;
  private final boolean resourcesAndPrompts;

  LegacyHandshake(ServerInfo info, boolean resourcesAndPrompts) {
    this.info = info;
    this.resourcesAndPrompts = resourcesAndPrompts;
  }

  Reply initialize(JsonRpc.Request req, Channel channel) {
    if (channel.handshake() != null) {
      return Reply.error(
          req.id(),
          JsonRpc.INVALID_REQUEST,
          "Invalid Request: already initialized",
          Reply.ErrorKind.INVALID_MESSAGE);
    }
    if (!(req.params().getValue("protocolVersion") instanceof String requested)) {
      return Reply.error(
          req.id(),
          JsonRpc.INVALID_PARAMS,
          "Invalid params: protocolVersion must be a string",
          Reply.ErrorKind.INVALID_MESSAGE);
    }
    String version = ProtocolVersions.negotiate(requested);
    JsonObject clientInfo = req.params().getJsonObject("clientInfo", new JsonObject());
    String clientName = clientInfo.getValue("name") instanceof String s && !s.isBlank() ? s : null;
    Object caps = req.params().getValue("capabilities");
    channel.handshake(
        new Channel.Handshake(
            version, clientName, caps instanceof JsonObject c ? c : new JsonObject()));
    JsonObject result =
        new JsonObject()
            .put("protocolVersion", version)
            .put("capabilities", ServerInfo.capabilities(resourcesAndPrompts))
            .put("serverInfo", info.implementation());
    if (info.instructions() != null) {
      result.put("instructions", info.instructions());
    }
    return Reply.result(req.id(), result);
  }

  static void initialized(Channel channel) {
    channel.markInitialized();
  }

  static Reply ping(JsonRpc.Request req) {
    return Reply.result(req.id(), new JsonObject());
  }

  /** A request on a channel with no handshake and no version in {@code _meta}. */
  static Reply beforeInitialize(JsonRpc.Request req) {
    if ("ping".equals(req.method())) {
      return ping(req);
    }
    return Reply.error(
        req.id(),
        JsonRpc.INVALID_PARAMS,
        "Invalid params: missing _meta." + MetaKeys.PROTOCOL_VERSION
            + " (send initialize first to use a legacy protocol version)",
        Reply.ErrorKind.INVALID_MESSAGE);
  }

  /** Who a legacy session's tool calls are recorded as: the client's name, else the transport. */
  static String agent(Channel.Handshake handshake, Channel channel) {
    return handshake.clientName() != null ? handshake.clientName() : channel.transport();
  }
}
