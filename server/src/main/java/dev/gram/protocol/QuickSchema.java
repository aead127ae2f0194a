package dev.gram.protocol;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool's input schema compiled into plain checks that answer one question fast: are these
 * arguments surely valid? {@link ArgumentValidator} asks it first and runs the full JSON Schema
 * validator only when it is not sure, so the full validator stays the one judge of what is
 * invalid and of what to say about it.
 *
 * <p>Why: checking a valid {@code gram_recall}'s arguments with vertx-json-schema was about a
 * tenth of the server's CPU for a recall answered from a kept ranking. The tools' schemas use a
 * handful of keywords ({@code type}, {@code properties}, {@code additionalProperties},
 * {@code required}, {@code minimum}, {@code maximum}, {@code items}, {@code enum},
 * {@code minItems}, {@code minLength}, {@code maxLength}, {@code anyOf}, and the annotation
 * {@code description}).
 *
 * <p>It is sound, not complete: it says "valid" only where JSON Schema (draft 2020-12) says so
 * beyond doubt, and "not sure" for anything else, including every keyword it does not know, a
 * number that is not a whole number where an integer is asked for, a bound on a value of another
 * type, and an {@code enum} of numbers or objects. A jqwik property holds it to that against the
 * full validator.
 */
final class QuickSchema {
  /** One compiled schema: true only when the value surely fits it. */
  @FunctionalInterface
  interface Check {
    boolean surelyValid(Object value);
  }

  private static final Check NOT_SURE = v -> false;

  private static final Set<String> ANNOTATIONS = Set.of("description", "title", "$schema", "$comment", "examples", "default");

  private QuickSchema() {}

  /** The checks of {@code schema}. */
  static Check compile(JsonObject schema) {
    List<Check> checks = new ArrayList<>();
    Map<String, Check> properties = null;
    for (String keyword : schema.fieldNames()) {
      Object arg = schema.getValue(keyword);
      Check c;
      switch (keyword) {
        case "type" -> c = arg instanceof String t ? type(t) : NOT_SURE;
        case "properties" -> {
          if (!(arg instanceof JsonObject props)) {
            return NOT_SURE;
          }
          properties = new HashMap<>();
          for (String name : props.fieldNames()) {
            Object sub = props.getValue(name);
            properties.put(name, sub instanceof JsonObject s ? compile(s) : NOT_SURE);
          }
          continue;
        }
        case "additionalProperties" -> {
          // Only "false" is compiled, and it is checked with "properties" below.
          if (!Boolean.FALSE.equals(arg)) {
            return NOT_SURE;
          }
          continue;
        }
        case "required" -> c = arg instanceof JsonArray names ? required(names) : NOT_SURE;
        case "minimum" -> c = arg instanceof Integer || arg instanceof Long ? atLeast(((Number) arg).longValue()) : NOT_SURE;
        case "maximum" -> c = arg instanceof Integer || arg instanceof Long ? atMost(((Number) arg).longValue()) : NOT_SURE;
        case "minLength" -> c = arg instanceof Integer n ? length(n, Integer.MAX_VALUE) : NOT_SURE;
        case "maxLength" -> c = arg instanceof Integer n ? length(0, n) : NOT_SURE;
        case "minItems" -> c = arg instanceof Integer n ? minItems(n) : NOT_SURE;
        case "items" -> c = arg instanceof JsonObject s ? items(compile(s)) : NOT_SURE;
        case "enum" -> c = arg instanceof JsonArray values ? oneOfValues(values) : NOT_SURE;
        case "anyOf" -> c = arg instanceof JsonArray branches ? anyOf(branches) : NOT_SURE;
        default -> {
          if (ANNOTATIONS.contains(keyword)) {
            continue;
          }
          return NOT_SURE;
        }
      }
      checks.add(c);
    }
    if (properties != null || Boolean.FALSE.equals(schema.getValue("additionalProperties"))) {
      checks.add(members(properties == null ? Map.of() : properties, Boolean.FALSE.equals(schema.getValue("additionalProperties"))));
    }
    Check[] all = checks.toArray(Check[]::new);
    return v -> {
      for (Check c : all) {
        if (!c.surelyValid(v)) {
          return false;
        }
      }
      return true;
    };
  }

  private static Check type(String type) {
    return switch (type) {
      case "object" -> v -> v instanceof JsonObject || v instanceof Map;
      case "array" -> v -> v instanceof JsonArray || v instanceof List;
      case "string" -> v -> v instanceof String;
      case "boolean" -> v -> v instanceof Boolean;
      case "null" -> v -> v == null;
      // Whole numbers as Java reads them; 2.0 is an integer to JSON Schema, but not surely here.
      case "integer" -> QuickSchema::whole;
      case "number" -> v -> whole(v) || (v instanceof Double d && Double.isFinite(d));
      default -> NOT_SURE;
    };
  }

  private static Check members(Map<String, Check> properties, boolean closed) {
    return v -> {
      Map<String, Object> map = map(v);
      if (map == null) {
        return false;
      }
      for (Map.Entry<String, Object> e : map.entrySet()) {
        Check c = properties.get(e.getKey());
        if (c == null ? closed : !c.surelyValid(e.getValue())) {
          return false;
        }
      }
      return true;
    };
  }

  private static Check required(JsonArray names) {
    List<String> keys = new ArrayList<>();
    for (Object n : names) {
      if (!(n instanceof String s)) {
        return NOT_SURE;
      }
      keys.add(s);
    }
    return v -> {
      Map<String, Object> map = map(v);
      if (map == null) {
        return false;
      }
      for (String k : keys) {
        if (!map.containsKey(k)) {
          return false;
        }
      }
      return true;
    };
  }

  private static Check atLeast(long bound) {
    return v -> whole(v) && ((Number) v).longValue() >= bound;
  }

  private static Check atMost(long bound) {
    return v -> whole(v) && ((Number) v).longValue() <= bound;
  }

  private static boolean whole(Object v) {
    return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte;
  }

  /** Characters counted both ways (UTF-16 units and code points): sure whichever the validator uses. */
  private static Check length(int min, int max) {
    return v -> {
      if (!(v instanceof String s)) {
        return false;
      }
      int units = s.length();
      int points = s.codePointCount(0, units);
      return Math.min(units, points) >= min && Math.max(units, points) <= max;
    };
  }

  private static Check minItems(int min) {
    return v -> {
      List<?> list = list(v);
      return list != null && list.size() >= min;
    };
  }

  private static Check items(Check each) {
    return v -> {
      List<?> list = list(v);
      if (list == null) {
        return false;
      }
      for (Object item : list) {
        if (!each.surelyValid(item)) {
          return false;
        }
      }
      return true;
    };
  }

  /** Strings, booleans and null only: equality of numbers and objects is the full validator's. */
  private static Check oneOfValues(JsonArray values) {
    Set<Object> allowed = new HashSet<>();
    for (Object value : values) {
      if (value != null && !(value instanceof String) && !(value instanceof Boolean)) {
        return NOT_SURE;
      }
      allowed.add(value);
    }
    return v -> (v == null || v instanceof String || v instanceof Boolean) && allowed.contains(v);
  }

  private static Check anyOf(JsonArray branches) {
    List<Check> checks = new ArrayList<>();
    for (Object b : branches) {
      checks.add(b instanceof JsonObject s ? compile(s) : NOT_SURE);
    }
    Check[] all = checks.toArray(Check[]::new);
    return v -> {
      for (Check c : all) {
        if (c.surelyValid(v)) {
          return true;
        }
      }
      return false;
    };
  }

  private static List<?> list(Object v) {
    return v instanceof JsonArray a ? a.getList() : v instanceof List<?> l ? l : null;
  }

  private static Map<String, Object> map(Object v) {
    if (v instanceof JsonObject o) {
      return o.getMap();
    }
    return v instanceof Map<?, ?> m ? cast(m) : null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }
}
