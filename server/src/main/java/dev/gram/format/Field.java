package dev.gram.format;

import java.util.List;

/**
 * One key of an entity with all its values in order. A key written once has one value; a
 * repeatable key such as {@code tag} or {@code source} keeps every value as written.
 */
public record Field(String key, List<String> values) {
  public Field {
    values = List.copyOf(values);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("field " + key + " has no value");
    }
  }

  public String first() {
    return values.get(0);
  }
}
