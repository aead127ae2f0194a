package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Case files as data: {@code <dir>/*.json}, each {@code {about, vars?, setup?, cases: [{name,
 * about?, needs?, era?, steps}]}}. Loading checks every key, so a misspelt one fails loudly instead of
 * being ignored.
 */
final class Cases {
  private Cases() {}

  /** One file: its vars and setup are shared by its cases; setup runs once, before the first. */
  record CaseFile(String name, ObjectNode vars, ArrayNode setup, List<Case> cases) {}

  /**
   * One case: {@code file/name}, what it needs from the server, the eras it belongs to (empty: every
   * era), its steps.
   */
  record Case(String name, String about, List<String> needs, List<String> eras, ArrayNode steps) {
    boolean runsIn(Era era) {
      return eras.isEmpty() || eras.contains(era.flag());
    }
  }

  private static final Set<String> FILE_KEYS = Set.of("about", "vars", "setup", "cases");
  private static final Set<String> CASE_KEYS = Set.of("name", "about", "needs", "eras", "steps");
  private static final Set<String> STEP_KEYS =
      Set.of("note", "call", "args", "request", "params", "edit", "insertBefore", "text", "write",
          "append", "delete", "expect", "save", "meta");
  private static final Set<String> EXPECT_KEYS = Set.of("result", "error", "response", "rpcError");
  private static final Set<String> ERROR_KEYS = Set.of("code", "message", "details");

  /** Every case file of a folder, by file name. */
  static List<CaseFile> load(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("no case folder " + dir + " (give --cases <dir>)");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<CaseFile> out = new ArrayList<>();
    for (Path f : files) {
      out.add(file(f));
    }
    return out;
  }

  private static CaseFile file(Path f) {
    String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
    JsonNode root = Json.read(f);
    String where = f.getFileName().toString();
    keys(root, FILE_KEYS, where);
    ObjectNode vars = root.has("vars") ? (ObjectNode) object(root.get("vars"), where + " vars") : Json.object();
    ArrayNode setup = root.has("setup") ? array(root.get("setup"), where + " setup") : Json.NODES.arrayNode();
    for (int i = 0; i < setup.size(); i++) {
      step(setup.get(i), where + " setup step " + (i + 1));
    }
    List<Case> cases = new ArrayList<>();
    for (JsonNode c : array(root.get("cases"), where + " cases")) {
      keys(c, CASE_KEYS, where);
      String name = c.path("name").asText("");
      if (name.isEmpty()) {
        throw new IllegalArgumentException(where + ": a case without a name");
      }
      List<String> needs = new ArrayList<>();
      if (c.has("needs")) {
        array(c.get("needs"), where + " " + name + " needs").forEach(n -> needs.add(n.asText()));
      }
      List<String> eras = new ArrayList<>();
      if (c.has("eras")) {
        for (JsonNode e : array(c.get("eras"), where + " " + name + " eras")) {
          Era.of(e.asText());
          eras.add(e.asText());
        }
      }
      ArrayNode steps = array(c.get("steps"), where + " " + name + " steps");
      for (int i = 0; i < steps.size(); i++) {
        step(steps.get(i), where + " " + name + " step " + (i + 1));
      }
      cases.add(new Case(stem + "/" + name, c.path("about").asText(""), List.copyOf(needs), List.copyOf(eras), steps));
    }
    return new CaseFile(stem, vars, setup, List.copyOf(cases));
  }

  private static void step(JsonNode s, String where) {
    keys(s, STEP_KEYS, where);
    int kinds = (s.has("call") ? 1 : 0) + (s.has("request") ? 1 : 0) + (s.has("edit") ? 1 : 0);
    if (kinds != 1) {
      throw new IllegalArgumentException(where + ": a step is exactly one of call, request or edit");
    }
    if (s.has("expect")) {
      keys(s.get("expect"), EXPECT_KEYS, where + " expect");
      if (s.get("expect").size() != 1) {
        throw new IllegalArgumentException(where + ": expect holds exactly one of result, error, response or rpcError");
      }
      if (s.get("expect").has("error")) {
        keys(s.get("expect").get("error"), ERROR_KEYS, where + " expect.error");
      }
    }
    if (s.has("save")) {
      object(s.get("save"), where + " save");
    }
  }

  private static void keys(JsonNode node, Set<String> allowed, String where) {
    object(node, where);
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!allowed.contains(n)) {
        throw new IllegalArgumentException(where + ": unknown key " + n + " (allowed: " + allowed + ")");
      }
    }
  }

  private static JsonNode object(JsonNode node, String where) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException(where + ": expected an object");
    }
    return node;
  }

  private static ArrayNode array(JsonNode node, String where) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException(where + ": expected an array");
    }
    return (ArrayNode) node;
  }
}
