package dev.gram.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The owner of a document or one of its records: an id, a type, fields (ordered by first
 * appearance, each with its values in order), links and named blocks. Immutable; the {@code with}
 * methods return a changed copy.
 */
public record Entity(
    EntityType type, String id, List<Field> fields, List<Link> links, List<Block> blocks) {

  public Entity {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(id, "id");
    fields = List.copyOf(fields);
    links = List.copyOf(links);
    blocks = List.copyOf(blocks);
  }

  public static Entity of(EntityType type, String id) {
    return new Entity(type, id, List.of(), List.of(), List.of());
  }

  public boolean isOwner() {
    return type == EntityType.DOCUMENT;
  }

  /** The field of that key, or {@code null}. */
  public Field field(String key) {
    for (Field f : fields) {
      if (f.key().equals(key)) {
        return f;
      }
    }
    return null;
  }

  /** The first value of a key, or {@code null}. */
  public String first(String key) {
    Field f = field(key);
    return f == null ? null : f.first();
  }

  /** All values of a key (empty when absent). */
  public List<String> values(String key) {
    Field f = field(key);
    return f == null ? List.of() : f.values();
  }

  /** The title ({@code t}), or the id when it has none. */
  public String title() {
    String t = first("t");
    return t == null ? id : t;
  }

  /** The block of that name, or {@code null}. */
  public Block block(String name) {
    for (Block b : blocks) {
      if (b.name().equals(name)) {
        return b;
      }
    }
    return null;
  }

  /** Sets a key to these values, keeping its position; an empty list removes the key. */
  public Entity withField(String key, List<String> values) {
    List<Field> out = new ArrayList<>(fields.size() + 1);
    boolean placed = false;
    for (Field f : fields) {
      if (f.key().equals(key)) {
        if (!values.isEmpty()) {
          out.add(new Field(key, values));
        }
        placed = true;
      } else {
        out.add(f);
      }
    }
    if (!placed && !values.isEmpty()) {
      out.add(new Field(key, values));
    }
    return new Entity(type, id, out, links, blocks);
  }

  public Entity withLinks(List<Link> newLinks) {
    return new Entity(type, id, fields, newLinks, blocks);
  }

  /** Sets a block's text, keeping its position; {@code null} removes the block. */
  public Entity withBlock(String name, String text) {
    List<Block> out = new ArrayList<>(blocks.size() + 1);
    boolean placed = false;
    for (Block b : blocks) {
      if (b.name().equals(name)) {
        if (text != null) {
          out.add(new Block(name, text));
        }
        placed = true;
      } else {
        out.add(b);
      }
    }
    if (!placed && text != null) {
      out.add(new Block(name, text));
    }
    return new Entity(type, id, fields, links, out);
  }
}
