package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A state laid onto the one before ({@link StateWalk}) is the revision's state as the history
 * rebuilds it ({@link History#stateAt}), whichever revisions are asked for, in any increasing
 * order: on histories of small edits (the walk's own path) mixed with whole new documents (where a
 * delta's lines are not whole entities and the walk rebuilds), some longer than a checkpoint's
 * spacing so that far jumps happen too.
 */
class StateWalkProperties {

  @Property(tries = 150)
  void eachStateIsTheRevisionsOwn(
      @ForAll("documents") GramDocument first,
      @ForAll("documents") GramDocument other,
      @ForAll @IntRange(min = 1, max = 80) int length,
      @ForAll Random random) throws Exception {
    List<GramDocument> states = new ArrayList<>();
    states.add(first);
    while (states.size() < length) {
      GramDocument before = states.get(states.size() - 1);
      if (random.nextInt(10) == 0) {
        states.add(other);
      } else {
        List<Integer> edits = new ArrayList<>();
        for (int i = random.nextInt(4); i >= 0; i--) {
          edits.add(random.nextInt(4));
        }
        states.add(CanonicalTextProperties.derive(before, other, edits));
      }
    }
    History h = GramRoundTripProperties.historyOf(states);
    StateWalk walk = new StateWalk(h);
    int step = 1 + random.nextInt(3);
    for (int rev = random.nextInt(2); rev < states.size(); rev += random.nextInt(step) + (random.nextInt(20) == 0 ? 40 : 1)) {
      assertThat(walk.stateAfter(h.revisions().get(rev))).as("revision %d of %d", rev, states.size())
          .isEqualTo(states.get(rev));
    }
  }

  @Provide
  Arbitrary<GramDocument> documents() {
    return GramRoundTripProperties.documents();
  }
}
