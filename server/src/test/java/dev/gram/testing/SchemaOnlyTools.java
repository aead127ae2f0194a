package dev.gram.testing;

import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import dev.gram.tools.ToolSchemas;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The fifteen tools' names and published schemas without their behaviour, for tests of the
 * protocol layer that need the contract's schemas but no vault.
 */
public final class SchemaOnlyTools {
  private SchemaOnlyTools() {}

  public static List<Tool> all() {
    return ToolRegistry.CONTRACT_ORDER.stream().map(SchemaOnlyTools::of).toList();
  }

  private static Tool of(String name) {
    JsonObject schema = ToolSchemas.load(name);
    return new Tool() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return "schema only";
      }

      @Override
      public JsonObject inputSchema() {
        return schema;
      }

      @Override
      public boolean readOnly() {
        return !name.equals("gram_create") && !name.equals("gram_patch");
      }

      @Override
      public Future<JsonObject> call(JsonObject arguments, CallContext context) {
        return Future.succeededFuture(new JsonObject());
      }
    };
  }
}
