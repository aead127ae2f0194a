package dev.gram.edit;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reading operation arguments, with {@code E_ARGUMENT} naming the operation and the problem. */
final class Args {
  private Args() {}

  static GramException bad(String where, String message) {
    return new GramException(ErrorCode.E_ARGUMENT, where + ": " + message);
  }

  static void allowOnly(JsonObject o, Set<String> keys, String where) {
    for (String k : o.fieldNames()) {
      if (!keys.contains(k)) {
        throw new GramException(ErrorCode.E_ARGUMENT, "Unknown argument " + k + " in " + where);
      }
    }
  }

  static String string(JsonObject o, String key, String where) {
    Object v = o.getValue(key);
    if (v == null) {
      throw bad(where, key + " is required");
    }
    if (!(v instanceof String s)) {
      throw bad(where, key + " must be a string");
    }
    return s;
  }

  static String optString(JsonObject o, String key, String where) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw bad(where, key + " must be a string");
    }
    return s;
  }

  /** A value as written: strings as they are, numbers and booleans as their JSON text. */
  static String scalar(Object v, String where) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Number || v instanceof Boolean) {
      return String.valueOf(v);
    }
    throw bad(where, "values must be strings");
  }

  /** A string or a list of strings. */
  static List<String> values(Object v, String where) {
    List<String> out = new ArrayList<>();
    if (v instanceof JsonArray a) {
      for (Object item : a) {
        out.add(scalar(item, where));
      }
    } else if (v == null) {
      throw bad(where, "value is required");
    } else {
      out.add(scalar(v, where));
    }
    return out;
  }
}
