package dev.gram.protocol;

import io.vertx.core.json.JsonObject;

/** How the server names itself to clients, in {@code initialize} and in modern results. */
public record ServerInfo(String name, String version, String instructions) {

  public JsonObject implementation() {
    return new JsonObject().put("name", name).put("title", name).put("version", version);
  }
}
