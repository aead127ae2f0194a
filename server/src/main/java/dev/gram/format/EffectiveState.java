package dev.gram.format;

import dev.gram.base.DateSpan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A document as of an effective time: when the facts happened, not when they were written down.
 *
 * <p>The rule, field by field as bi-temporal stores define it (docs/gram-format.md §11): among the
 * revisions recorded up to a point, take those <em>effective</em> at or before {@code t} (a
 * revision without {@code eff} is effective when it was recorded). Each entity and each of its
 * keys (a field, its links, a block, the body) has the value written by the latest-recorded of
 * those revisions that changed it; an entity exists if its latest such change is not a deletion.
 * A revision recorded later but effective earlier therefore corrects the past without hiding what
 * was effective in between, and a fact that becomes effective after {@code t} never shows up,
 * however early it was recorded.
 *
 * <p>Each revision's {@link Revision.Change changes} say which keys it wrote; the values are read
 * from the state that revision produced, each state laid onto the one before ({@link StateWalk}),
 * so a read costs what the revisions changed, not what the document holds times its revisions.
 * Records keep the order of the newest state that holds them.
 */
public final class EffectiveState {
  private EffectiveState() {}

  /** When a revision's facts happened: its {@code eff}, or its recorded time when it has none. */
  public static Instant effectiveTime(Revision r) {
    Instant eff = r.effectiveAt() == null ? null : DateSpan.parseInstant(r.effectiveAt());
    return eff == null ? r.recordedAt() : eff;
  }

  /**
   * The revisions, among {@code 0..recordedUpTo}, whose facts are effective at or before {@code
   * t}, in recorded order.
   */
  public static List<Revision> effectiveRevisions(History history, Instant t, int recordedUpTo) {
    List<Revision> out = new ArrayList<>();
    List<Revision> revs = history.revisions();
    for (int i = 0; i <= recordedUpTo && i < revs.size(); i++) {
      if (!effectiveTime(revs.get(i)).isAfter(t)) {
        out.add(revs.get(i));
      }
    }
    return out;
  }

  /**
   * The document as of effective time {@code t}, as recorded up to revision {@code recordedUpTo},
   * or {@code null} when no revision recorded by then is effective at {@code t}.
   */
  public static GramDocument at(History history, Instant t, int recordedUpTo) throws IntegrityException {
    List<Revision> effective = effectiveRevisions(history, t, recordedUpTo);
    if (effective.isEmpty()) {
      return null;
    }
    Entity owner = null;
    Map<String, Entity> records = new LinkedHashMap<>();
    Set<String> deleted = new HashSet<>();
    GramDocument last = null;
    StateWalk states = new StateWalk(history);
    for (Revision r : effective) {
      GramDocument after = states.stateAfter(r);
      last = after;
      for (Revision.Change c : r.changes()) {
        boolean isOwner = c.id().equals(after.owner().id()) || EntityType.DOCUMENT.typeName().equals(c.type());
        Entity written = isOwner ? after.owner() : after.record(c.id());
        switch (c.kind()) {
          case ADD -> {
            if (isOwner) {
              owner = after.owner();
            } else if (written != null) {
              records.put(c.id(), written);
              deleted.remove(c.id());
            }
          }
          case SET -> {
            if (written == null) {
              continue;
            }
            Entity base = isOwner ? owner : records.get(c.id());
            Entity merged = copyKeys(base == null ? Entity.of(written.type(), written.id()) : base, written, c.keys());
            if (isOwner) {
              owner = merged;
            } else {
              records.put(c.id(), merged);
              deleted.remove(c.id());
            }
          }
          case DEL -> {
            records.remove(c.id());
            deleted.add(c.id());
          }
        }
      }
    }
    if (owner == null) {
      owner = Entity.of(EntityType.DOCUMENT, last.owner().id());
    }
    return new GramDocument(owner, ordered(history, records, recordedUpTo));
  }

  /** {@code base} with the named keys of {@code written} (a key absent there is removed). */
  private static Entity copyKeys(Entity base, Entity written, List<String> keys) {
    Entity e = base;
    for (String key : keys) {
      switch (key) {
        case "type", "order" -> {
          if (key.equals("type")) {
            e = new Entity(written.type(), e.id(), e.fields(), e.links(), e.blocks());
          }
        }
        case "id" -> e = new Entity(e.type(), written.id(), e.fields(), e.links(), e.blocks());
        case "links" -> e = e.withLinks(written.links());
        default -> {
          String block = written.isOwner() && key.equals("body") ? Block.RICH : key;
          Block b = written.block(block);
          Field f = written.field(key);
          if (b != null || (f == null && e.block(block) != null)) {
            e = e.withBlock(block, b == null ? null : b.text());
          }
          if (f != null || e.field(key) != null) {
            e = e.withField(key, f == null ? List.of() : f.values());
          }
        }
      }
    }
    return e;
  }

  /** Records in the order of the newest recorded state that holds them; others after, as met. */
  private static List<Entity> ordered(History history, Map<String, Entity> records, int recordedUpTo)
      throws IntegrityException {
    Map<String, Integer> position = new HashMap<>();
    GramDocument newest = history.stateAt(Math.min(recordedUpTo, history.headRev()));
    List<Entity> placed = newest.records();
    for (int i = 0; i < placed.size(); i++) {
      position.put(placed.get(i).id(), i);
    }
    List<Entity> out = new ArrayList<>(records.values());
    int unplaced = placed.size();
    Map<String, Integer> order = new HashMap<>();
    for (Entity e : out) {
      Integer p = position.get(e.id());
      order.put(e.id(), p == null ? unplaced++ : p);
    }
    out.sort((a, b) -> Integer.compare(order.get(a.id()), order.get(b.id())));
    return out;
  }
}
