package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The case language's values: {@link #expand} turns a request template into the JSON to send
 * ({@code ${var}} placeholders, {@code $repeat} and {@code $generate}); {@link #match} compares an
 * answer with an expectation template (placeholders, matchers such as {@code "<hex16>"}, exact or
 * partial objects, arrays by length or element). {@code conformance/README.md} is the reference;
 * this class is its implementation.
 *
 * <p>Why one class of about 440 lines: it is the whole expectation language of the case files
 * (matchers, combinators, placeholders, expansion), which conformance/README.md documents as one
 * table; the two halves, expanding requests and matching answers, share the placeholder rules.
 */
final class Template {
  private Template() {}

  /** A whole string that is one placeholder: its value keeps its JSON type (a number stays one). */
  private static final Pattern WHOLE = Pattern.compile("^\\$\\{([A-Za-z0-9_.-]+)}$");

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z0-9_.-]+)}");
  private static final Pattern TYPE_MATCHER = Pattern.compile("^<([a-z0-9]+(\\|[a-z0-9]+)*)>$");

  private static final Pattern HEX16 = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern TIME =
      Pattern.compile(
          "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})");

  /** A case error: a placeholder without a value or a malformed template, not a server fault. */
  static final class CaseError extends RuntimeException {
    CaseError(String message) {
      super(message, null, false, false);
    }
  }

  // ------------------------------------------------------------------------------ expanding

  /** The JSON a request template stands for, with every placeholder and generator resolved. */
  static JsonNode expand(JsonNode t, Map<String, JsonNode> vars) {
    if (t == null) {
      return null;
    }
    if (t.isTextual()) {
      return expandString(t.asText(), vars);
    }
    if (t.isArray()) {
      ArrayNode out = Json.NODES.arrayNode();
      for (JsonNode e : t) {
        out.add(expand(e, vars));
      }
      return out;
    }
    if (t.isObject()) {
      if (t.has("$repeat")) {
        String unit = expandString(t.get("$repeat").asText(), vars).asText();
        int times = intOption(t, "times");
        return TextNode.valueOf(unit.repeat(times));
      }
      if (t.has("$join")) {
        StringBuilder joined = new StringBuilder();
        for (JsonNode part : t.get("$join")) {
          JsonNode v = expand(part, vars);
          joined.append(v.isTextual() ? v.asText() : Json.compact(v));
        }
        return TextNode.valueOf(joined.toString());
      }
      if (t.has("$generate")) {
        int count = intOption(t, "count");
        String as = t.path("as").asText("i");
        ArrayNode out = Json.NODES.arrayNode();
        for (int i = 1; i <= count; i++) {
          Map<String, JsonNode> inner = new HashMap<>(vars);
          inner.put(as, Json.NODES.numberNode(i));
          out.add(expand(t.get("$generate"), inner));
        }
        return out;
      }
      ObjectNode out = Json.object();
      for (Map.Entry<String, JsonNode> e : t.properties()) {
        out.set(expandString(e.getKey(), vars).asText(), expand(e.getValue(), vars));
      }
      return out;
    }
    return t.deepCopy();
  }

  private static int intOption(JsonNode t, String name) {
    JsonNode v = t.get(name);
    if (v == null || !v.canConvertToInt() || v.asInt() < 0) {
      throw new CaseError("generator " + Json.brief(t, 80) + " needs a non-negative " + name);
    }
    return v.asInt();
  }

  /** {@code "${x}"} is x's value; otherwise each {@code ${x}} becomes x's text, {@code $${} is {@code ${}. */
  static JsonNode expandString(String s, Map<String, JsonNode> vars) {
    Matcher whole = WHOLE.matcher(s);
    if (whole.matches()) {
      return value(whole.group(1), vars).deepCopy();
    }
    return TextNode.valueOf(interpolate(s, vars, false));
  }

  private static String interpolate(String s, Map<String, JsonNode> vars, boolean quoteForRegex) {
    Matcher m = PLACEHOLDER.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) == null) {
        replacement = "${";
      } else {
        JsonNode v = value(m.group(1), vars);
        replacement = v.isTextual() ? v.asText() : Json.compact(v);
      }
      if (quoteForRegex) {
        replacement = Pattern.quote(replacement);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static JsonNode value(String name, Map<String, JsonNode> vars) {
    JsonNode v = vars.get(name);
    if (v == null) {
      throw new CaseError("no value for ${" + name + "}");
    }
    return v;
  }

  // ------------------------------------------------------------------------------ matching

  /**
   * Compares {@code actual} with the expectation {@code t}; null when it matches, else where and
   * how it differs.
   */
  static String match(JsonNode t, JsonNode actual, Map<String, JsonNode> vars) {
    return match(t, actual, vars, "");
  }

  private static String match(JsonNode t, JsonNode actual, Map<String, JsonNode> vars, String at) {
    if (t.isTextual()) {
      return matchString(t.asText(), actual, vars, at);
    }
    if (t.isObject() && isOperator(t)) {
      return matchOperator((ObjectNode) t, actual, vars, at);
    }
    if (t.isObject()) {
      return matchObject((ObjectNode) t, actual, vars, at);
    }
    if (t.isArray()) {
      if (actual == null || !actual.isArray()) {
        return differ(at, "an array of " + t.size(), actual);
      }
      if (actual.size() != t.size()) {
        return differ(at, "an array of " + t.size() + " (" + Json.brief(t, 160) + ")", actual);
      }
      for (int i = 0; i < t.size(); i++) {
        String f = match(t.get(i), actual.get(i), vars, at + "/" + i);
        if (f != null) {
          return f;
        }
      }
      return null;
    }
    return literal(t, actual) ? null : differ(at, Json.compact(t), actual);
  }

  private static String matchString(String s, JsonNode actual, Map<String, JsonNode> vars, String at) {
    if (s.startsWith("<<")) {
      return literalString(s.substring(1), actual, at);
    }
    if (s.startsWith("<re:") && s.endsWith(">")) {
      String source = interpolate(s.substring(4, s.length() - 1), vars, true);
      Pattern p;
      try {
        p = Pattern.compile(source, Pattern.DOTALL);
      } catch (PatternSyntaxException e) {
        throw new CaseError("bad regular expression " + s + ": " + e.getDescription());
      }
      if (actual == null || !actual.isTextual() || !p.matcher(actual.asText()).matches()) {
        return differ(at, "a string matching " + s, actual);
      }
      return null;
    }
    Matcher type = TYPE_MATCHER.matcher(s);
    if (type.matches()) {
      for (String alternative : type.group(1).split("\\|")) {
        if (isType(alternative, actual)) {
          return null;
        }
      }
      return differ(at, s, actual);
    }
    JsonNode expected = expandString(s, vars);
    if (!expected.isTextual()) {
      return literal(expected, actual) ? null : differ(at, Json.brief(expected, 160), actual);
    }
    return literalString(expected.asText(), actual, at);
  }

  private static String literalString(String expected, JsonNode actual, String at) {
    if (actual != null && actual.isTextual() && actual.asText().equals(expected)) {
      return null;
    }
    return differ(at, Json.compact(TextNode.valueOf(expected)), actual);
  }

  private static boolean isType(String name, JsonNode a) {
    if (name.equals("absent")) {
      return a == null;
    }
    if (a == null) {
      return false;
    }
    switch (name) {
      case "any":
        return true;
      case "string":
        return a.isTextual();
      case "int":
        return a.isIntegralNumber();
      case "number":
        return a.isNumber();
      case "bool":
        return a.isBoolean();
      case "object":
        return a.isObject();
      case "array":
        return a.isArray();
      case "null":
        return a.isNull();
      case "hex16":
        return a.isTextual() && HEX16.matcher(a.asText()).matches();
      case "hex64":
        return a.isTextual() && HEX64.matcher(a.asText()).matches();
      case "time":
        return a.isTextual() && TIME.matcher(a.asText()).matches();
      default:
        throw new CaseError("unknown matcher <" + name + ">");
    }
  }

  private static boolean isOperator(JsonNode t) {
    Iterator<String> names = t.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (n.startsWith("$") && !n.equals("$partial") && !n.equals("$optional")) {
        return true;
      }
    }
    return false;
  }

  private static String matchObject(ObjectNode t, JsonNode actual, Map<String, JsonNode> vars, String at) {
    if (actual == null || !actual.isObject()) {
      return differ(at, "an object", actual);
    }
    Set<String> known = new HashSet<>();
    for (Map.Entry<String, JsonNode> e : t.properties()) {
      if (e.getKey().startsWith("$")) {
        continue;
      }
      String key = interpolate(e.getKey(), vars, false);
      known.add(key);
      String f = match(e.getValue(), actual.get(key), vars, at + "/" + key);
      if (f != null) {
        return f;
      }
    }
    for (Map.Entry<String, JsonNode> e : t.path("$optional").properties()) {
      known.add(e.getKey());
      JsonNode a = actual.get(e.getKey());
      if (a != null) {
        String f = match(e.getValue(), a, vars, at + "/" + e.getKey());
        if (f != null) {
          return f;
        }
      }
    }
    if (!t.path("$partial").asBoolean(false)) {
      List<String> extra = new ArrayList<>();
      actual.fieldNames().forEachRemaining(n -> {
        if (!known.contains(n)) {
          extra.add(n);
        }
      });
      if (!extra.isEmpty()) {
        return (at.isEmpty() ? "/" : at) + ": unexpected key(s) " + extra + " in " + Json.brief(actual, 200);
      }
    }
    return null;
  }

  private static String matchOperator(ObjectNode t, JsonNode actual, Map<String, JsonNode> vars, String at) {
    if (t.has("$each")) {
      if (actual == null || !actual.isArray()) {
        return differ(at, "an array", actual);
      }
      String size = sizeCheck(t, actual, at);
      if (size != null) {
        return size;
      }
      for (int i = 0; i < actual.size(); i++) {
        String f = match(t.get("$each"), actual.get(i), vars, at + "/" + i);
        if (f != null) {
          return f;
        }
      }
      return null;
    }
    if (t.has("$values")) {
      if (actual == null || !actual.isObject()) {
        return differ(at, "an object", actual);
      }
      for (Map.Entry<String, JsonNode> e : actual.properties()) {
        String f = match(t.get("$values"), e.getValue(), vars, at + "/" + e.getKey());
        if (f != null) {
          return f;
        }
      }
      return null;
    }
    if (t.has("$contains") || t.has("$unordered")) {
      boolean exact = t.has("$unordered");
      JsonNode wanted = exact ? t.get("$unordered") : t.get("$contains");
      if (actual == null || !actual.isArray()) {
        return differ(at, "an array", actual);
      }
      if (exact && actual.size() != wanted.size()) {
        return differ(at, "an array of " + wanted.size() + " in any order", actual);
      }
      boolean[] used = new boolean[actual.size()];
      for (JsonNode w : wanted) {
        boolean found = false;
        for (int i = 0; i < actual.size() && !found; i++) {
          if (!used[i] && match(w, actual.get(i), vars, at + "/" + i) == null) {
            used[i] = true;
            found = true;
          }
        }
        if (!found) {
          return (at.isEmpty() ? "/" : at) + ": no element matches " + Json.brief(w, 160) + " in " + Json.brief(actual, 300);
        }
      }
      return null;
    }
    if (t.has("$anyOf")) {
      List<String> failures = new ArrayList<>();
      for (JsonNode alternative : t.get("$anyOf")) {
        String f = match(alternative, actual, vars, at);
        if (f == null) {
          return null;
        }
        failures.add(f);
      }
      return (at.isEmpty() ? "/" : at) + ": matches none of the alternatives: " + String.join(" | ", failures);
    }
    if (t.has("$allOf")) {
      for (JsonNode each : t.get("$allOf")) {
        String f = match(each, actual, vars, at);
        if (f != null) {
          return f;
        }
      }
      return null;
    }
    if (t.has("$not")) {
      return match(t.get("$not"), actual, vars, at) == null
          ? differ(at, "anything but " + Json.brief(t.get("$not"), 120), actual)
          : null;
    }
    throw new CaseError("unknown operator in " + Json.brief(t, 120));
  }

  private static String sizeCheck(JsonNode t, JsonNode actual, String at) {
    int n = actual.size();
    if (t.has("$length") && n != t.get("$length").asInt()) {
      return differ(at, "an array of " + t.get("$length").asInt(), actual);
    }
    if (t.has("$minLength") && n < t.get("$minLength").asInt()) {
      return differ(at, "an array of at least " + t.get("$minLength").asInt(), actual);
    }
    if (t.has("$maxLength") && n > t.get("$maxLength").asInt()) {
      return differ(at, "an array of at most " + t.get("$maxLength").asInt(), actual);
    }
    return null;
  }

  /** JSON equality where numbers compare by value (1 and 1.0 are the same number). */
  static boolean literal(JsonNode e, JsonNode a) {
    if (a == null) {
      return false;
    }
    if (e.isNumber() && a.isNumber()) {
      return e.decimalValue().compareTo(a.decimalValue()) == 0;
    }
    if (e.isArray() && a.isArray()) {
      if (e.size() != a.size()) {
        return false;
      }
      for (int i = 0; i < e.size(); i++) {
        if (!literal(e.get(i), a.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (e.isObject() && a.isObject()) {
      if (e.size() != a.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> f : e.properties()) {
        if (!literal(f.getValue(), a.get(f.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return e.equals(a);
  }

  private static String differ(String at, String expected, JsonNode actual) {
    return (at.isEmpty() ? "/" : at) + ": expected " + expected + ", got " + Json.brief(actual, 200);
  }
}
