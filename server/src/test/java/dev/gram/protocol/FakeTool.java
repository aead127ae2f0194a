package dev.gram.protocol;

import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.BiFunction;

/** A tool whose behaviour a test supplies, with a small permissive-but-closed schema. */
final class FakeTool implements Tool {
  private final String name;
  private final boolean readOnly;
  private final JsonObject schema;
  private final BiFunction<JsonObject, CallContext, Future<JsonObject>> body;

  FakeTool(String name, BiFunction<JsonObject, CallContext, Future<JsonObject>> body) {
    this(name, true, new JsonObject()
        .put("type", "object")
        .put("additionalProperties", false)
        .put("properties", new JsonObject()
            .put("text", new JsonObject().put("type", "string"))
            .put("size", new JsonObject().put("type", "integer").put("minimum", 0))), body);
  }

  FakeTool(String name, boolean readOnly, JsonObject schema,
      BiFunction<JsonObject, CallContext, Future<JsonObject>> body) {
    this.name = name;
    this.readOnly = readOnly;
    this.schema = schema;
    this.body = body;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return "test tool " + name;
  }

  @Override
  public JsonObject inputSchema() {
    return schema.copy();
  }

  @Override
  public boolean readOnly() {
    return readOnly;
  }

  @Override
  public Future<JsonObject> call(JsonObject arguments, CallContext context) {
    return body.apply(arguments, context);
  }
}
