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
   * What {@code initialize} and {@code server/discover} announce. The tool and prompt lists never
   * change while the server runs, so they have no {@code listChanged} to send; documents do, so
   * resources have both {@code subscribe} and {@code listChanged} when the server serves them.
   */
  static JsonObject capabilities(boolean resourcesAndPrompts) {
    JsonObject caps = new JsonObject().put("tools", new JsonObject().put("listChanged", false));
    if (resourcesAndPrompts) {
      caps.put("resources", new JsonObject().put("subscribe", true).put("listChanged", true))
          .put("prompts", new JsonObject().put("listChanged", false));
    }
    return caps;
  }
}
