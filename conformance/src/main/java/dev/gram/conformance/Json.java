package dev.gram.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The one Jackson mapper of the runner and a few helpers around it. */
final class Json {
  private Json() {}

  static final ObjectMapper MAPPER = new ObjectMapper();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static JsonNode parse(String text) throws JsonProcessingException {
    return MAPPER.readTree(text);
  }

  static JsonNode read(Path file) {
    try {
      return MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Compact JSON cut to {@code max} characters, for failure messages that stay on one line. */
  static String brief(JsonNode node, int max) {
    String s = node == null ? "(nothing)" : compact(node);
    return s.length() <= max ? s : s.substring(0, max) + "…";
  }
}
