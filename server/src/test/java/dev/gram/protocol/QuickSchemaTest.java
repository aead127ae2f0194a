package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.SchemaOnlyTools;
import dev.gram.tools.spi.Tool;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.Validator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The quick checks against the full JSON Schema validator, on arguments made from each tool's
 * schema: fitting ones, and ones with a fault somewhere (a wrong type, a bound crossed, a required
 * key dropped, a stray key, an unusual but valid value).
 */
class QuickSchemaTest {
  private static final List<Tool> TOOLS = SchemaOnlyTools.all();

  record Call(Tool tool, JsonObject arguments) {
    @Override
    public String toString() {
      return tool.name() + " " + arguments.encode();
    }
  }

  /** Never "surely valid" where the validator refuses (fails when a check is left out or loosened). */
  @Property(tries = 3_000)
  void whatTheQuickChecksPassTheValidatorPasses(@ForAll("faulty") Call call) {
    if (QuickSchema.compile(call.tool().inputSchema()).surelyValid(call.arguments())) {
      assertThat(full(call.tool()).validate(call.arguments()).getValid()).as(call.toString()).isTrue();
    }
  }

  /** Sure of arguments of the usual shapes (fails when a schema compiles to "not sure"). */
  @Property(tries = 1_000)
  void argumentsOfTheUsualShapesAreSurelyValid(@ForAll("fitting") Call call) {
    assertThat(full(call.tool()).validate(call.arguments()).getValid()).as(call.toString()).isTrue();
    assertThat(QuickSchema.compile(call.tool().inputSchema()).surelyValid(call.arguments())).as(call.toString()).isTrue();
  }

  @Provide
  Arbitrary<Call> faulty() {
    return calls(0.08);
  }

  @Provide
  Arbitrary<Call> fitting() {
    return calls(0);
  }

  private static Arbitrary<Call> calls(double faults) {
    return Arbitraries.of(TOOLS).flatMap(tool -> Arbitraries.randomValue(r -> {
      Object made = make(tool.inputSchema(), r, faults);
      // As a client's arguments arrive: parsed from text, objects and arrays inside as maps and lists.
      JsonObject args = made instanceof Map<?, ?> m ? new JsonObject(new JsonObject(cast(m)).encode()) : new JsonObject();
      return new Call(tool, args);
    }));
  }

  private static final Map<String, Validator> FULL = new java.util.concurrent.ConcurrentHashMap<>();

  private static Validator full(Tool tool) {
    return FULL.computeIfAbsent(tool.name(), n -> Validator.create(JsonSchema.of(tool.inputSchema().copy()),
        new JsonSchemaOptions().setDraft(Draft.DRAFT202012).setBaseUri("https://gram.dev/schemas/" + n)
            .setOutputFormat(OutputFormat.Flag)));
  }

  /** A value for {@code schema}; with probability {@code faults} at each node, something else. */
  private static Object make(JsonObject schema, Random r, double faults) {
    if (r.nextDouble() < faults) {
      return odd(r);
    }
    if (schema.containsKey("anyOf")) {
      JsonArray branches = schema.getJsonArray("anyOf");
      return make(branches.getJsonObject(r.nextInt(branches.size())), r, faults);
    }
    if (schema.containsKey("enum")) {
      JsonArray values = schema.getJsonArray("enum");
      return values.getValue(r.nextInt(values.size()));
    }
    String type = schema.getString("type", "object");
    switch (type) {
      case "object": {
        Map<String, Object> out = new LinkedHashMap<>();
        JsonObject props = schema.getJsonObject("properties", new JsonObject());
        List<String> required = new ArrayList<>();
        schema.getJsonArray("required", new JsonArray()).forEach(k -> required.add((String) k));
        for (String name : props.fieldNames()) {
          boolean need = required.contains(name);
          if ((need && r.nextDouble() >= faults) || (!need && r.nextBoolean())) {
            out.put(name, make(props.getJsonObject(name), r, faults));
          }
        }
        if (r.nextDouble() < faults) {
          out.put("stray", 1);
        }
        return out;
      }
      case "array": {
        int min = schema.getInteger("minItems", 0);
        int n = min + r.nextInt(3);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          out.add(make(schema.getJsonObject("items", new JsonObject()), r, faults));
        }
        return out;
      }
      case "string": {
        int min = schema.getInteger("minLength", 0);
        int max = schema.getInteger("maxLength", min + 12);
        int len = min + r.nextInt(Math.max(1, max - min + 1));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < len; i++) {
          b.append((char) ('a' + r.nextInt(26)));
        }
        if (faults > 0 && r.nextDouble() < faults && b.length() > 0) {
          // Valid, but not plain: a character outside the basic plane counts once or twice.
          b.setCharAt(0, 'é');
          b.append("\uD83D\uDE00");
        }
        return b.toString();
      }
      case "integer": {
        long min = schema.getLong("minimum", -5L);
        long max = schema.getLong("maximum", min + 50);
        long v = min + (long) r.nextInt((int) Math.min(Integer.MAX_VALUE - 1, max - min + 1));
        if (faults > 0 && r.nextDouble() < faults) {
          return r.nextBoolean() ? (Object) (double) v : (Object) (v + (long) Integer.MAX_VALUE * 4);
        }
        return v <= Integer.MAX_VALUE && v >= Integer.MIN_VALUE ? (Object) (int) v : (Object) v;
      }
      case "number":
        return r.nextInt(100);
      case "boolean":
        return r.nextBoolean();
      case "null":
        return null;
      default:
        return odd(r);
    }
  }

  private static Object odd(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> "x";
      case 1 -> -1;
      case 2 -> 1.5;
      case 3 -> true;
      case 4 -> null;
      case 5 -> new LinkedHashMap<String, Object>();
      case 6 -> new ArrayList<>();
      default -> "";
    };
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }
}
