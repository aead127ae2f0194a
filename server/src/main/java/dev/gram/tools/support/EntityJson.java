package dev.gram.tools.support;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.Field;
import dev.gram.format.Link;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;

/** Entities as the reading tools answer them: {@code {id, type, fields, links?, blocks?}}. */
public final class EntityJson {
  private EntityJson() {}

  /** {@code {key: [values]}} for the keys asked for ({@code null}: every field), in entity order. */
  public static JsonObject fields(Entity e, Collection<String> keys) {
    JsonObject out = new JsonObject();
    for (Field f : e.fields()) {
      if (keys == null || keys.contains(f.key())) {
        out.put(f.key(), new JsonArray(List.copyOf(f.values())));
      }
    }
    return out;
  }

  /** {@code [[predicate, target]]}. */
  public static JsonArray links(Entity e) {
    JsonArray out = new JsonArray();
    for (Link l : e.links()) {
      out.add(new JsonArray().add(l.predicate()).add(l.target()));
    }
    return out;
  }

  /**
   * {@code {name: text}} for the blocks asked for; {@code null} asks for every block but the
   * owner's body, which is read with gram_read (or named explicitly: {@code rich}).
   */
  public static JsonObject blocks(Entity e, Collection<String> names) {
    JsonObject out = new JsonObject();
    for (Block b : e.blocks()) {
      boolean body = e.isOwner() && b.name().equals(Block.RICH);
      if (names == null ? !body : names.contains(b.name())) {
        out.put(b.name(), b.text());
      }
    }
    return out;
  }

  /** The entity a request names: {@code doc} or the owner's id for the owner, else a record. */
  public static Entity lookup(dev.gram.format.GramDocument doc, String id) {
    return id.equals("doc") ? doc.owner() : doc.entity(id);
  }
}
