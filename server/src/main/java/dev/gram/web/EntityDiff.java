package dev.gram.web;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.format.Revision;
import dev.gram.format.StateDiff;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Two states of a document compared entity by entity: what was added, what was removed, and for
 * each changed entity every changed key with its value before and after. Which entities and keys
 * changed is {@link StateDiff}'s answer (the same the history records); this adds the values. The
 * body is compared block by block: the blocks only the older state has, and those only the newer
 * one has (a block's id follows its text, so an edited block is one of each).
 */
final class EntityDiff {
  /** One changed key: its values before and after, one string per value ({@code []} when absent). */
  record KeyChange(String key, List<String> before, List<String> after) {}

  /** One entity present in both states with something changed. */
  record Changed(Entity before, Entity after, List<KeyChange> keys) {}

  record Result(List<Entity> added, List<Changed> changed, List<Entity> removed) {
    boolean empty() {
      return added.isEmpty() && changed.isEmpty() && removed.isEmpty();
    }
  }

  private EntityDiff() {}

  static Result between(GramDocument before, GramDocument after) {
    List<Entity> added = new ArrayList<>();
    List<Changed> changed = new ArrayList<>();
    List<Entity> removed = new ArrayList<>();
    for (Revision.Change c : StateDiff.changes(before, after)) {
      switch (c.kind()) {
        case ADD -> added.add(after.entity(c.id()));
        case DEL -> removed.add(before.entity(c.id()));
        case SET -> {
          Entity a = before.entity(c.id());
          Entity b = after.entity(c.id());
          if (a == null) {
            // The owner's id itself changed: the old owner is the one compared.
            a = before.owner();
          }
          changed.add(new Changed(a, b, keys(a, b, c.keys())));
        }
      }
    }
    return new Result(added, changed, removed);
  }

  private static List<KeyChange> keys(Entity a, Entity b, List<String> keys) {
    List<KeyChange> out = new ArrayList<>();
    for (String key : keys) {
      switch (key) {
        case "type" -> out.add(new KeyChange("type", List.of(a.type().typeName()), List.of(b.type().typeName())));
        case "id" -> out.add(new KeyChange("id", List.of(a.id()), List.of(b.id())));
        case "order" -> out.add(new KeyChange("order", List.of("moved"), List.of("moved")));
        case "links" -> out.add(new KeyChange("links", links(a), links(b)));
        case "body" -> out.addAll(body(block(a, Block.RICH), block(b, Block.RICH)));
        default -> {
          Field fa = a.field(key);
          Field fb = b.field(key);
          if (fa != null || fb != null) {
            out.add(new KeyChange(key, fa == null ? List.of() : fa.values(), fb == null ? List.of() : fb.values()));
          }
          Block ba = a.block(key);
          Block bb = b.block(key);
          if ((ba != null || bb != null) && !java.util.Objects.equals(ba, bb)) {
            out.add(new KeyChange("::" + key, ba == null ? List.of() : List.of(ba.text()),
                bb == null ? List.of() : List.of(bb.text())));
          }
        }
      }
    }
    return out;
  }

  private static String block(Entity e, String name) {
    Block b = e.block(name);
    return b == null ? "" : b.text();
  }

  private static List<String> links(Entity e) {
    List<String> out = new ArrayList<>();
    for (Link l : e.links()) {
      out.add(l.predicate() + " → " + l.target());
    }
    return out;
  }

  /** The body's blocks that only one side has, as one change. */
  private static List<KeyChange> body(String before, String after) {
    List<BodyNode> a = Body.parse(before).nodes();
    List<BodyNode> b = Body.parse(after).nodes();
    Set<String> ids = new LinkedHashSet<>();
    for (BodyNode n : b) {
      ids.add(n.id());
    }
    Set<String> old = new LinkedHashSet<>();
    List<String> gone = new ArrayList<>();
    for (BodyNode n : a) {
      old.add(n.id());
      if (!ids.contains(n.id())) {
        gone.add(n.md());
      }
    }
    List<String> come = new ArrayList<>();
    for (BodyNode n : b) {
      if (!old.contains(n.id())) {
        come.add(n.md());
      }
    }
    if (gone.isEmpty() && come.isEmpty()) {
      return List.of(new KeyChange("body", List.of("blocks reordered"), List.of("blocks reordered")));
    }
    return List.of(new KeyChange("body", gone, come));
  }
}
