package dev.gram.protocol;

import dev.gram.base.ErrorCode;
import dev.gram.tools.spi.Tool;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks tool arguments against each tool's own {@link Tool#inputSchema()} with vertx-json-schema,
 * so the schema a client sees in {@code tools/list} is the only definition of valid input.
 *
 * <p>A failure becomes an {@link ErrorCode#E_ARGUMENT} tool error. An unexpected key gets the
 * contract's message {@code Unknown argument <key>}; other failures name the argument and say
 * what the schema wanted, in the validator's words.
 */
public final class ArgumentValidator {
  private static final String BASE_URI = "https://gram.dev/schemas/";

  /** Says only "surely valid", without a validator: the fastest, for the common case. */
  private final Map<String, QuickSchema.Check> quick = new HashMap<>();
  /** Answers only valid or not: fast, for the arguments the quick checks were not sure of. */
  private final Map<String, Validator> flags = new HashMap<>();
  /** Says what is wrong, for the arguments the flag validator refused. */
  private final Map<String, Validator> validators = new HashMap<>();

  public ArgumentValidator(List<? extends Tool> tools) {
    for (Tool tool : tools) {
      quick.put(tool.name(), QuickSchema.compile(tool.inputSchema()));
      flags.put(tool.name(), Validator.create(JsonSchema.of(tool.inputSchema().copy()), options(tool, OutputFormat.Flag)));
      validators.put(tool.name(), Validator.create(JsonSchema.of(tool.inputSchema().copy()), options(tool, OutputFormat.Basic)));
    }
  }

  private static JsonSchemaOptions options(Tool tool, OutputFormat format) {
    return new JsonSchemaOptions()
        .setDraft(Draft.DRAFT202012)
        .setBaseUri(BASE_URI + tool.name())
        .setOutputFormat(format);
  }

  /** Returns normally when the arguments fit; throws the E_ARGUMENT error to return otherwise. */
  public void check(String toolName, JsonObject arguments) throws GramException {
    Validator flag = flags.get(toolName);
    if (flag == null) {
      throw new IllegalArgumentException("no schema for " + toolName);
    }
    if (quick.get(toolName).surelyValid(arguments)) {
      return;
    }
    // Building the detailed report costs more than validating: only refused arguments pay it.
    if (Boolean.TRUE.equals(flag.validate(arguments).getValid())) {
      return;
    }
    OutputUnit result = validators.get(toolName).validate(arguments);
    if (Boolean.TRUE.equals(result.getValid())) {
      return;
    }
    throw describe(result);
  }

  private static GramException describe(OutputUnit result) {
    List<OutputUnit> errors = new ArrayList<>();
    if (result.getErrors() != null) {
      errors.addAll(result.getErrors());
    }
    // A declared property whose value is wrong is also reported under additionalProperties (it
    // was not successfully evaluated); only keys with no other complaint are really unknown.
    List<OutputUnit> spurious = new ArrayList<>();
    for (OutputUnit e : errors) {
      if (isUnknownKey(e) && hasOtherErrorAt(errors, e.getInstanceLocation())) {
        spurious.add(e);
      }
    }
    errors.removeAll(spurious);
    if (errors.isEmpty()) {
      return new GramException(ErrorCode.E_ARGUMENT, "Invalid arguments");
    }
    // The contract's message for a stray key wins; otherwise the deepest, most specific failure.
    errors.sort(
        Comparator.comparingInt(ArgumentValidator::rank)
            .thenComparing(e -> -depth(e.getInstanceLocation())));
    OutputUnit first = errors.get(0);
    String keyword = keyword(first.getKeywordLocation());
    String path = argumentPath(first.getInstanceLocation());
    JsonObject details = new JsonObject();
    String message;
    switch (keyword) {
      case "additionalProperties", "unevaluatedProperties" -> {
        message = "Unknown argument " + path;
        details.put("argument", path);
      }
      case "required" -> {
        String missing = quoted(first.getError());
        String full = path.isEmpty() ? missing : path + "." + missing;
        message = "Missing argument " + full;
        details.put("argument", full);
      }
      default -> {
        message =
            path.isEmpty()
                ? "Invalid arguments: " + first.getError()
                : "Invalid argument " + path + ": " + first.getError();
        if (!path.isEmpty()) {
          details.put("argument", path);
        }
      }
    }
    details.put("keyword", keyword);
    return new GramException(ErrorCode.E_ARGUMENT, message, details);
  }

  private static boolean isUnknownKey(OutputUnit e) {
    String k = keyword(e.getKeywordLocation());
    return k.equals("additionalProperties") || k.equals("unevaluatedProperties");
  }

  private static boolean hasOtherErrorAt(List<OutputUnit> errors, String location) {
    for (OutputUnit o : errors) {
      String at = o.getInstanceLocation();
      if (!isUnknownKey(o) && at != null && (at.equals(location) || at.startsWith(location + "/"))) {
        return true;
      }
    }
    return false;
  }

  private static int rank(OutputUnit e) {
    return switch (keyword(e.getKeywordLocation())) {
      case "additionalProperties", "unevaluatedProperties" -> 0;
      case "required" -> 1;
      // Wrappers that only say "a sub-schema failed": the leaf errors say more.
      case "properties", "items", "prefixItems", "$ref", "allOf" -> 3;
      default -> 2;
    };
  }

  private static String keyword(String keywordLocation) {
    if (keywordLocation == null) {
      return "";
    }
    int slash = keywordLocation.lastIndexOf('/');
    return slash < 0 ? keywordLocation : keywordLocation.substring(slash + 1);
  }

  private static int depth(String instanceLocation) {
    return argumentPath(instanceLocation).isEmpty()
        ? 0
        : argumentPath(instanceLocation).split("\\.").length;
  }

  /** {@code #/content/records/0} → {@code content.records.0}; the root is the empty string. */
  static String argumentPath(String instanceLocation) {
    if (instanceLocation == null) {
      return "";
    }
    String p = instanceLocation;
    if (p.startsWith("#")) {
      p = p.substring(1);
    }
    if (p.startsWith("/")) {
      p = p.substring(1);
    }
    if (p.isEmpty()) {
      return "";
    }
    String[] parts = p.split("/", -1);
    StringBuilder out = new StringBuilder();
    for (String part : parts) {
      if (out.length() > 0) {
        out.append('.');
      }
      out.append(part.replace("~1", "/").replace("~0", "~"));
    }
    return out.toString();
  }

  private static String quoted(String text) {
    if (text == null) {
      return "";
    }
    int a = text.indexOf('"');
    int b = text.lastIndexOf('"');
    return a >= 0 && b > a ? text.substring(a + 1, b) : text;
  }
}
