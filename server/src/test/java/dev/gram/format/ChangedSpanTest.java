package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The span a commit changed, found by identity from both ends, and what a revision says changed
 * ({@link StateDiff}), which now looks at that span alone: it must say what comparing every record
 * of the two states says.
 */
class ChangedSpanTest {

  @Test
  void spansAreFoundByIdentityFromBothEnds() {
    Entity a = event(1, "a");
    Entity b = event(2, "b");
    Entity c = event(3, "c");
    Entity b2 = event(2, "b, edited");
    assertThat(ChangedSpan.of(List.of(a, b), List.of(a, b, c), 10)).isEqualTo(new ChangedSpan(2, 2, 3));
    assertThat(ChangedSpan.of(List.of(a, b, c), List.of(a, b2, c), 10)).isEqualTo(new ChangedSpan(1, 2, 2));
    assertThat(ChangedSpan.of(List.of(a, b, c), List.of(a, c), 10)).isEqualTo(new ChangedSpan(1, 2, 1));
    assertThat(ChangedSpan.of(List.of(a, b, c), List.of(c, b, a), 10)).isEqualTo(new ChangedSpan(0, 3, 3));
    assertThat(ChangedSpan.of(List.of(a, b, c), List.of(c, b, a), 5)).isNull();
  }

  @Test
  void aRevisionsChangesAreThoseOfEveryRecordCompared() {
    Random random = new Random(42);
    Entity owner = new Entity(EntityType.DOCUMENT, "d1", List.of(new Field("t", List.of("Log"))), List.of(), List.of());
    List<Entity> records = new ArrayList<>();
    int next = 0;
    for (; next < 20; next++) {
      records.add(event(next, "first"));
    }
    GramDocument before = new GramDocument(owner, records);
    for (int step = 0; step < 2_000; step++) {
      int n = records.size();
      int at = n == 0 ? 0 : random.nextInt(n);
      switch (random.nextInt(6)) {
        case 0 -> records.add(event(next++, "new"));
        case 1 -> records.add(at, event(next++, "inserted"));
        case 2 -> {
          if (n > 0) {
            records.set(at, event(Integer.parseInt(records.get(at).id().substring(1)), "edited " + step));
          }
        }
        case 3 -> {
          if (n > 0) {
            records.remove(at);
          }
        }
        case 4 -> {
          if (n > 1) {
            records.add(random.nextInt(n - 1), records.remove(at));
          }
        }
        default -> {
          for (int k = 0; k < 3; k++) {
            records.add(event(next++, "batch"));
          }
        }
      }
      GramDocument after = new GramDocument(owner, records);
      assertThat(StateDiff.changes(before, after)).as("step %d", step).isEqualTo(everyRecordCompared(before, after));
      before = after;
    }
  }

  /** The comparison StateDiff made before it looked at the span alone. */
  private static List<Revision.Change> everyRecordCompared(GramDocument before, GramDocument after) {
    List<Revision.Change> out = new ArrayList<>();
    for (Entity r : after.records()) {
      Entity old = before.record(r.id());
      if (old == null) {
        out.add(Revision.Change.added(r.id(), r.type().typeName()));
      } else if (!old.equals(r)) {
        List<String> keys = StateDiff.changedKeys(old, r);
        out.add(Revision.Change.changed(r.id(), keys.isEmpty() ? List.of("order") : keys));
      }
    }
    for (Entity r : before.records()) {
      if (after.record(r.id()) == null) {
        out.add(Revision.Change.removed(r.id(), r.type().typeName()));
      }
    }
    return out;
  }

  private static Entity event(int n, String text) {
    return new Entity(EntityType.EVENT, "e" + n, List.of(new Field("t", List.of("Event " + n + " " + text))), List.of(),
        List.of());
  }
}
