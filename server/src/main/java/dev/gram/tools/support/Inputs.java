package dev.gram.tools.support;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed reading of tool arguments. The protocol layer validates arguments against the input schema
 * before a tool runs; these readers still fail with {@code E_ARGUMENT} (never a
 * ClassCastException) when a call reaches a tool some other way with a value of the wrong type.
 */
public final class Inputs {
  private Inputs() {}

  public static GramException bad(String message) {
    return new GramException(ErrorCode.E_ARGUMENT, message);
  }

  public static String string(JsonObject o, String key) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw bad(key + " must be a string");
    }
    return s;
  }

  /** An integer argument within [min, max], or {@code null} when absent. */
  public static Integer integer(JsonObject o, String key, int min, int max) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw bad(key + " must be an integer");
    }
    long l = n.longValue();
    if (l < min || l > max) {
      throw bad(key + " must be between " + min + " and " + max + ", not " + l);
    }
    return (int) l;
  }

  public static boolean bool(JsonObject o, String key, boolean dflt) {
    Object v = o.getValue(key);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Boolean b)) {
      throw bad(key + " must be true or false");
    }
    return b;
  }

  public static JsonObject object(JsonObject o, String key) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject j)) {
      throw bad(key + " must be an object");
    }
    return j;
  }

  public static JsonArray array(JsonObject o, String key) {
    Object v = o.getValue(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonArray a)) {
      throw bad(key + " must be a list");
    }
    return a;
  }

  /** A list of strings, or {@code null} when absent. */
  public static List<String> strings(JsonObject o, String key) {
    JsonArray a = array(o, key);
    if (a == null) {
      return null;
    }
    List<String> out = new ArrayList<>(a.size());
    for (Object item : a) {
      if (!(item instanceof String s)) {
        throw bad(key + " must be a list of strings");
      }
      out.add(s);
    }
    return out;
  }

  /** At most one of {@code a} and {@code b}. */
  public static void notBoth(JsonObject o, String a, String b) {
    if (o.getValue(a) != null && o.getValue(b) != null) {
      throw bad("give " + a + " or " + b + ", not both");
    }
  }
}
