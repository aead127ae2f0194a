package dev.gram.edit;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.format.Syntax;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * Records written as JSON: {@code {type, id?, fields: {key: [values]}, links: [{predicate,
 * target}] or [[predicate, target]], blocks: [{name, text}]}}.
 */
final class Records {
  private Records() {}

  private static final Set<String> RECORD_KEYS = Set.of("type", "id", "fields", "links", "blocks");

  /** Generates an id for a new record: its type code and 8 random hex digits. */
  static String newId(EntityType type, Predicate<String> taken) {
    while (true) {
      byte[] b = new byte[4];
      ThreadLocalRandom.current().nextBytes(b);
      String id = type.code().toLowerCase(java.util.Locale.ROOT) + "_" + HexFormat.of().formatHex(b);
      if (!taken.test(id)) {
        return id;
      }
    }
  }

  static EntityType type(String word, String where) {
    EntityType t = EntityType.ofRecordWord(word);
    if (t == null) {
      throw Args.bad(
          where,
          "unknown record type " + word + "; use one of task decision evidence knowledge context history goal"
              + " blocker requirement risk assumption metric event artifact person agent project system"
              + " service component source run asset, or relation");
    }
    return t;
  }

  static Entity fromJson(JsonObject json, Predicate<String> taken, String where, Diagnostics diagnostics) {
    Args.allowOnly(json, RECORD_KEYS, where);
    EntityType type = type(Args.string(json, "type", where), where);
    String id = Args.optString(json, "id", where);
    if (id == null) {
      id = newId(type, taken);
    } else if (!Syntax.isId(id)) {
      throw Args.bad(where, "invalid id " + id + ": use letters, digits, _ . : - (at most 128)");
    } else if (taken.test(id)) {
      throw Args.bad(where, "id " + id + " is already used in this document");
    }
    List<Field> fields = fields(json.getValue("fields"), where + " " + id);
    List<Link> links = links(json.getValue("links"), where + " " + id);
    List<Block> blocks = blocks(json.getValue("blocks"), where + " " + id, false);
    Entity e = new Entity(type, id, fields, links, blocks);
    if (type == EntityType.RELATION) {
      checkRelation(e, where);
    } else {
      String t = e.first("t");
      if (t == null || t.isBlank()) {
        throw Args.bad(where + " " + id, "a record needs a title: fields.t");
      }
    }
    checkValues(e, diagnostics);
    return e;
  }

  static List<Field> fields(Object raw, String where) {
    List<Field> out = new ArrayList<>();
    if (raw == null) {
      return out;
    }
    if (!(raw instanceof JsonObject o)) {
      throw Args.bad(where, "fields must be an object of key: [values]");
    }
    for (Map.Entry<String, Object> e : o) {
      String key = e.getKey();
      if (!Syntax.isKey(key)) {
        throw Args.bad(where, "invalid field key " + key);
      }
      List<String> values = Args.values(e.getValue(), where + " field " + key);
      if (!values.isEmpty()) {
        out.add(new Field(key, values));
      }
    }
    return out;
  }

  static List<Link> links(Object raw, String where) {
    List<Link> out = new ArrayList<>();
    if (raw == null) {
      return out;
    }
    if (!(raw instanceof JsonArray a)) {
      throw Args.bad(where, "links must be a list of {predicate, target} or [predicate, target]");
    }
    for (Object item : a) {
      Link l = link(item, where);
      if (!out.contains(l)) {
        out.add(l);
      }
    }
    return out;
  }

  static Link link(Object item, String where) {
    String predicate;
    String target;
    if (item instanceof JsonObject lo) {
      Args.allowOnly(lo, Set.of("predicate", "target"), where + " link");
      predicate = Args.string(lo, "predicate", where + " link");
      target = Args.string(lo, "target", where + " link");
    } else if (item instanceof JsonArray la && la.size() == 2
        && la.getValue(0) instanceof String p && la.getValue(1) instanceof String t) {
      predicate = p;
      target = t;
    } else {
      throw Args.bad(where, "a link is {predicate, target} or [predicate, target]");
    }
    return checkedLink(predicate, target, where);
  }

  static Link checkedLink(String predicate, String target, String where) {
    if (!Link.isPredicate(predicate)) {
      throw Args.bad(where, "unknown predicate " + predicate + "; use one of " + String.join(" ", Link.PREDICATES));
    }
    if (!Syntax.isTarget(target)) {
      throw Args.bad(where, "invalid link target " + target + ": a record id, or document-id/entity-id");
    }
    return new Link(predicate, target);
  }

  static List<Block> blocks(Object raw, String where, boolean owner) {
    List<Block> out = new ArrayList<>();
    if (raw == null) {
      return out;
    }
    if (raw instanceof JsonObject o) {
      for (Map.Entry<String, Object> e : o) {
        out.add(block(e.getKey(), e.getValue(), where, owner));
      }
    } else if (raw instanceof JsonArray a) {
      for (Object item : a) {
        if (!(item instanceof JsonObject bo)) {
          throw Args.bad(where, "a block is {name, text}");
        }
        Args.allowOnly(bo, Set.of("name", "text"), where + " block");
        out.add(block(Args.string(bo, "name", where + " block"), bo.getValue("text"), where, owner));
      }
    } else {
      throw Args.bad(where, "blocks must be a list of {name, text}");
    }
    for (int i = 0; i < out.size(); i++) {
      for (int j = i + 1; j < out.size(); j++) {
        if (out.get(i).name().equals(out.get(j).name())) {
          throw Args.bad(where, "block " + out.get(i).name() + " is given twice");
        }
      }
    }
    return out;
  }

  private static Block block(String name, Object text, String where, boolean owner) {
    if (!Syntax.isBlockName(name)) {
      throw Args.bad(where, "invalid block name " + name);
    }
    if (owner && name.equals(Block.RICH)) {
      throw Args.bad(where, "the body is written as text or rich, not as a block");
    }
    if (!(text instanceof String s)) {
      throw Args.bad(where, "block " + name + " needs text");
    }
    return new Block(name, s);
  }

  /** A relation record needs {@code from}, {@code rel} (a predicate) and {@code to}. */
  static void checkRelation(Entity e, String where) {
    String from = e.first("from");
    String rel = e.first("rel");
    String to = e.first("to");
    if (from == null || rel == null || to == null) {
      throw Args.bad(where + " " + e.id(), "a relation needs fields from, rel and to");
    }
    checkedLink(rel, to, where + " " + e.id());
    if (!Syntax.isTarget(from)) {
      throw Args.bad(where + " " + e.id(), "invalid relation source " + from);
    }
  }

  static void checkValues(Entity e, Diagnostics d) {
    for (Field f : e.fields()) {
      for (String v : f.values()) {
        String problem = ValueChecks.problem(f.key(), v);
        if (problem != null) {
          d.add(Diagnostics.UNPARSED_VALUE, e.isOwner() ? "doc" : e.id(), problem);
        }
      }
    }
  }

  /** Reports links, relation ends and placements that name nothing. */
  static void checkRefs(GramDocument doc, PatchRefs refs, Diagnostics d) {
    for (Entity r : doc.records()) {
      for (Link l : r.links()) {
        if (!refs.resolves(doc, l.target())) {
          d.add(Diagnostics.UNRESOLVED_REF, r.id(), "link " + l.predicate() + " " + l.target() + " names nothing");
        }
      }
      if (r.type() == EntityType.RELATION) {
        for (String end : List.of("from", "to")) {
          String v = r.first(end);
          if (v != null && !refs.resolves(doc, v)) {
            d.add(Diagnostics.UNRESOLVED_REF, r.id(), "relation " + end + " " + v + " names nothing");
          }
        }
      }
    }
  }

  /** How targets resolve: ids in this document, or document-id/entity-id in the vault. */
  interface PatchRefs {
    boolean documentExists(String documentId);

    default boolean resolves(GramDocument doc, String target) {
      int slash = target.indexOf('/');
      if (slash < 0) {
        return doc.contains(target);
      }
      String docId = target.substring(0, slash);
      if (docId.equals(doc.id())) {
        return doc.contains(target.substring(slash + 1));
      }
      return documentExists(docId);
    }
  }

  static JsonArray linksJson(List<Link> links) {
    JsonArray a = new JsonArray();
    for (Link l : links) {
      a.add(new JsonArray().add(l.predicate()).add(l.target()));
    }
    return a;
  }
}
