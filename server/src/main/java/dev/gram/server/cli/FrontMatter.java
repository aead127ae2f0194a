package dev.gram.server.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The YAML front matter of a Markdown note, in the subset notes use: {@code key: value}, quoted
 * values, flow lists {@code [a, b]} and block lists ({@code key:} then {@code - item} lines). A
 * line outside that subset is reported, never guessed at.
 *
 * @param values every key's values, in order
 * @param rest the note after the front matter
 * @param problems lines that were not understood
 */
record FrontMatter(Map<String, List<String>> values, String rest, List<String> problems) {

  static FrontMatter parse(String text) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    if (!text.startsWith("---\n")) {
      return new FrontMatter(values, text, problems);
    }
    String[] lines = text.split("\n", -1);
    int end = -1;
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].equals("---") || lines[i].equals("...")) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      return new FrontMatter(values, text, List.of("front matter has no closing ---; kept as text"));
    }
    String listKey = null;
    for (int i = 1; i < end; i++) {
      String line = lines[i];
      if (line.isBlank() || line.stripLeading().startsWith("#")) {
        continue;
      }
      String item = line.strip();
      if (listKey != null && item.startsWith("- ")) {
        values.get(listKey).add(unquote(item.substring(2).strip()));
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0 || Character.isWhitespace(line.charAt(0))) {
        problems.add("front matter line " + (i + 1) + " not understood: " + line.strip());
        continue;
      }
      String key = line.substring(0, colon).strip();
      String value = line.substring(colon + 1).strip();
      List<String> vs = values.computeIfAbsent(unquote(key), k -> new ArrayList<>());
      listKey = null;
      if (value.isEmpty()) {
        listKey = unquote(key);
      } else if (value.startsWith("[") && value.endsWith("]")) {
        for (String v : splitFlow(value.substring(1, value.length() - 1))) {
          if (!v.isBlank()) {
            vs.add(unquote(v.strip()));
          }
        }
      } else if (value.startsWith("|") || value.startsWith(">") || value.startsWith("{")) {
        problems.add("front matter " + key + ": multi-line and nested values are not converted");
        values.remove(unquote(key));
      } else {
        vs.add(unquote(value));
      }
    }
    values.values().removeIf(List::isEmpty);
    StringBuilder rest = new StringBuilder();
    for (int i = end + 1; i < lines.length; i++) {
      rest.append(lines[i]);
      if (i < lines.length - 1) {
        rest.append('\n');
      }
    }
    String body = rest.toString();
    while (body.startsWith("\n")) {
      body = body.substring(1);
    }
    return new FrontMatter(values, body, problems);
  }

  private static List<String> splitFlow(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    char quote = 0;
    for (char c : s.toCharArray()) {
      if (quote != 0) {
        cur.append(c);
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        cur.append(c);
      } else if (c == ',') {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }

  static String unquote(String v) {
    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      try {
        return (String) io.vertx.core.json.Json.decodeValue(v);
      } catch (RuntimeException e) {
        return v.substring(1, v.length() - 1);
      }
    }
    if (v.length() >= 2 && v.startsWith("'") && v.endsWith("'")) {
      return v.substring(1, v.length() - 1).replace("''", "'");
    }
    int comment = v.indexOf(" #");
    return comment >= 0 ? v.substring(0, comment).strip() : v;
  }
}
