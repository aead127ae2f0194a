package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/**
 * Which era serves a request other than {@code initialize}, read from the version in its {@code
 * _meta} and from its channel's handshake. A version in {@code _meta} wins over the channel: a
 * 2026-07-28 request stands alone even on a channel that made a legacy handshake.
 */
sealed interface RequestEra {

  /** A 2026-07-28 request; {@code meta} is its {@code _meta}, still to be checked. */
  record Modern(JsonObject meta) implements RequestEra {}

  /** A request of the legacy session its channel opened with {@code initialize}. */
  record Legacy(Channel.Handshake handshake) implements RequestEra {}

  /** Neither a handshake on the channel nor a version in {@code _meta}. */
  record Unannounced() implements RequestEra {}

  /** A version the request cannot be served with; {@code reply} says why. */
  record Refused(Reply reply) implements RequestEra {}

  static RequestEra of(JsonRpc.Request req, Channel channel) {
    Channel.Handshake handshake = channel.handshake();
    JsonObject meta = req.params().getValue("_meta") instanceof JsonObject m ? m : null;
    if (meta == null || !meta.containsKey(MetaKeys.PROTOCOL_VERSION)) {
      return handshake != null ? new Legacy(handshake) : new Unannounced();
    }
    if (!(meta.getValue(MetaKeys.PROTOCOL_VERSION) instanceof String version)) {
      return new Refused(
          Reply.error(
              req.id(),
              JsonRpc.INVALID_PARAMS,
              "Invalid params: _meta." + MetaKeys.PROTOCOL_VERSION + " must be a string",
              Reply.ErrorKind.INVALID_MESSAGE));
    }
    if (ProtocolVersions.isModern(version)) {
      return new Modern(meta);
    }
    if (!ProtocolVersions.isLegacy(version)) {
      return new Refused(ProtocolVersions.unsupported(req.id(), version));
    }
    if (handshake != null) {
      return new Legacy(handshake);
    }
    // A legacy version names a session, and only initialize opens one.
    return new Refused(
        Reply.error(
            req.id(),
            JsonRpc.INVALID_REQUEST,
            "Protocol version " + version + " begins with initialize; per-request _meta needs "
                + ProtocolVersions.MODERN.get(0),
            Reply.ErrorKind.INVALID_MESSAGE));
  }
}
