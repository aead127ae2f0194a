package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A document derived by an edit keeps (or grows) the index of the one it came from instead of
 * checking and indexing every record again: what it finds by id must be what a document built
 * from the same records finds, over long runs of appends (past the point where the appended ids
 * are folded into the index), edits in place, removals and new owners.
 */
class GramDocumentEditsTest {

  @Test
  void aDocumentDerivedByEditsFindsWhatOneBuiltFromItsRecordsFinds() {
    Random random = new Random(5);
    Entity owner = owner("d1", "first");
    List<Entity> records = new ArrayList<>();
    GramDocument doc = new GramDocument(owner, records);
    int next = 0;
    for (int step = 0; step < 3_000; step++) {
      int n = records.size();
      int kind = random.nextInt(10);
      if (kind < 6 || n == 0) {
        Entity e = event(next++, "new");
        records.add(e);
        doc = doc.withRecord(e);
      } else if (kind < 8) {
        int at = random.nextInt(n);
        Entity e = event(Integer.parseInt(records.get(at).id().substring(1)), "edited " + step);
        records.set(at, e);
        doc = doc.withRecord(e);
      } else if (kind == 8) {
        Entity gone = records.remove(random.nextInt(n));
        doc = doc.withoutRecord(gone.id());
      } else {
        owner = owner("d1", "owner at " + step);
        doc = doc.withOwner(owner);
      }
      GramDocument built = new GramDocument(owner, records);
      assertThat(doc).as("step %d", step).isEqualTo(built);
      for (Entity e : records) {
        assertThat(doc.record(e.id())).isSameAs(e);
      }
      assertThat(doc.record("e" + next)).isNull();
      assertThat(doc.contains("e" + (next + 1))).isFalse();
      assertThat(doc.entity("d1")).isSameAs(owner);
    }
  }

  @Test
  void anEditCannotAddASecondOwnerOrReuseTheOwnersId() {
    GramDocument doc = new GramDocument(owner("d1", "x"), List.of(event(1, "a")));
    assertThatThrownBy(() -> doc.withRecord(owner("d2", "y"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> doc.withRecord(new Entity(EntityType.EVENT, "d1", List.of(), List.of(), List.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate id d1");
  }

  private static Entity owner(String id, String title) {
    return new Entity(EntityType.DOCUMENT, id, List.of(new Field("t", List.of(title))), List.of(), List.of());
  }

  private static Entity event(int n, String text) {
    return new Entity(EntityType.EVENT, "e" + n, List.of(new Field("t", List.of("Event " + n + " " + text))), List.of(),
        List.of());
  }
}
