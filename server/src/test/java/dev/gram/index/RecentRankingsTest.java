package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a recall keeps lives as long as the reader it came from, and not a refresh longer. */
class RecentRankingsTest {
  @Test
  void shownFieldsAreKeptForTheirReaderOnly() {
    RecentRankings recent = new RecentRankings();
    Object first = new Object();
    Object second = new Object();
    HitFields a = new HitFields("p/a.gram", "t1", "task", "Feed the cat", null, null);
    recent.keepShown(first, new int[] {5}, new HitFields[] {a});
    assertThat(recent.shown(first, new int[] {5, 6})).containsExactly(a, null);
    assertThat(recent.shown(second, new int[] {5})).containsExactly((HitFields) null);

    // A newer reader's first ranking drops what the older one showed: document 5 is now another unit.
    RecentRankings.Key key = new RecentRankings.Key("cat", RecallRequest.Mode.KEYWORD, RecallRequest.Filters.NONE, 11);
    recent.put(second, key, List.of(new Candidate(5, 1f, "p/b.gram#t2", null)));
    assertThat(recent.shown(second, new int[] {5})).containsExactly((HitFields) null);
    assertThat(recent.get(first, key)).isNull();

    // And the same for the shown fields read first with the newer reader.
    Object third = new Object();
    recent.keepShown(third, new int[] {7}, new HitFields[] {a});
    assertThat(recent.get(third, key)).isNull();
    assertThat(recent.shown(third, new int[] {5, 7})).containsExactly(null, a);
  }
}
