package dev.gram.tools;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Loads a tool's input schema from {@code dev/gram/tools/schemas/<name>.json} on the classpath,
 * once per tool: a tool bound to a restricted caller is built per call and must not parse it again.
 * Each caller gets its own copy.
 */
public final class ToolSchemas {
  private static final java.util.Map<String, JsonObject> LOADED = new java.util.concurrent.ConcurrentHashMap<>();

  private ToolSchemas() {}

  public static JsonObject load(String toolName) {
    return LOADED.computeIfAbsent(toolName, ToolSchemas::parse).copy();
  }

  private static JsonObject parse(String toolName) {
    String resource = "schemas/" + toolName + ".json";
    try (InputStream in = ToolSchemas.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing schema resource " + resource);
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
