package dev.gram.format;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What changed between two states of a document, entity by entity: the {@code chg} lines of a
 * revision. A changed entity names its changed keys: field keys, {@code links}, and block names,
 * with the owner's {@code rich} block named {@code body}.
 */
public final class StateDiff {
  private StateDiff() {}

  public static List<Revision.Change> changes(GramDocument before, GramDocument after) {
    List<Revision.Change> out = new ArrayList<>();
    if (before == null) {
      out.add(Revision.Change.added(after.owner().id(), EntityType.DOCUMENT.typeName()));
      for (Entity r : after.records()) {
        out.add(Revision.Change.added(r.id(), r.type().typeName()));
      }
      return out;
    }
    List<String> ownerKeys = changedKeys(before.owner(), after.owner());
    if (!before.owner().id().equals(after.owner().id())) {
      ownerKeys = new ArrayList<>(ownerKeys);
      ownerKeys.add(0, "id");
    }
    if (!ownerKeys.isEmpty()) {
      out.add(Revision.Change.changed(after.owner().id(), ownerKeys));
    }
    // Records outside the span are the same objects in both states: nothing to say of them.
    ChangedSpan span = ChangedSpan.of(before.records(), after.records(), Integer.MAX_VALUE);
    for (int i = span.start(); i < span.afterEnd(); i++) {
      Entity r = after.records().get(i);
      Entity old = before.record(r.id());
      if (old == null) {
        out.add(Revision.Change.added(r.id(), r.type().typeName()));
      } else if (!old.equals(r)) {
        List<String> keys = changedKeys(old, r);
        if (keys.isEmpty()) {
          keys = List.of("order");
        }
        out.add(Revision.Change.changed(r.id(), keys));
      }
    }
    for (int i = span.start(); i < span.beforeEnd(); i++) {
      Entity r = before.records().get(i);
      if (after.record(r.id()) == null) {
        out.add(Revision.Change.removed(r.id(), r.type().typeName()));
      }
    }
    return out;
  }

  /** The keys whose values differ between two versions of one entity. */
  public static List<String> changedKeys(Entity a, Entity b) {
    Set<String> keys = new LinkedHashSet<>();
    if (a.type() != b.type()) {
      keys.add("type");
    }
    for (Field f : a.fields()) {
      if (!Objects.equals(f, b.field(f.key()))) {
        keys.add(f.key());
      }
    }
    for (Field f : b.fields()) {
      if (a.field(f.key()) == null) {
        keys.add(f.key());
      }
    }
    if (!a.links().equals(b.links())) {
      keys.add("links");
    }
    for (Block blk : a.blocks()) {
      if (!Objects.equals(blk, b.block(blk.name()))) {
        keys.add(blockKey(a, blk.name()));
      }
    }
    for (Block blk : b.blocks()) {
      if (a.block(blk.name()) == null) {
        keys.add(blockKey(b, blk.name()));
      }
    }
    return new ArrayList<>(keys);
  }

  private static String blockKey(Entity e, String name) {
    return e.isOwner() && name.equals(Block.RICH) ? "body" : name;
  }
}
