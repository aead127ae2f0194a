package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/**
 * How the server names and describes itself to clients, in {@code initialize}, in {@code
 * server/discover} and in every 2026-07-28 result. The server supplies it, so the protocol needs
 * nothing from the layers above to say who it is.
 */
public record ServerInfo(String name, String version, String instructions) {

  public JsonObject implementation() {
    return new JsonObject().put("name", name).put("title", name).put("version", version);
  }

  /** The {@code _meta} of a 2026-07-28 result: the server's name and version. */
  JsonObject resultMeta() {
    return new JsonObject().put(MetaKeys.SERVER_INFO, implementation());
  }

  /**
   * What {@code initialize} and {@code server/discover} announce. The tool list never changes
   * while the server runs, so there is no {@code listChanged} to send.
   */
  static JsonObject capabilities() {
    return new JsonObject().put("tools", new JsonObject().put("listChanged", false));
  }
}
