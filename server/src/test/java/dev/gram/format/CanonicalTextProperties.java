package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The incremental canonical text is the canonical text: for a state derived from another by
 * keeping, dropping, inserting and replacing entities (sharing the kept ones, as patches do), the
 * lines, the hash and the delta equal what writing the whole text and diffing it gives.
 */
class CanonicalTextProperties {

  /** A state and the state derived from it ({@link #derive}). */
  record Step(GramDocument a, GramDocument b) {}

  @Property(tries = 400)
  void nextStateTextHashAndDeltaMatchTheWholeText(@ForAll("steps") Step step) {
    GramDocument a = step.a();
    GramDocument b = step.b();
    CanonicalText ta = CanonicalText.of(a);
    CanonicalText tb = ta.next(b);
    String whole = GramWriter.write(b);
    assertThat(tb.lines()).isEqualTo(LineDiff.lines(whole));
    assertThat(tb.sha256()).isEqualTo(Hashes.sha256(whole));
    assertThat(new String(tb.utf8(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(whole);
    assertThat(ta.lines()).isEqualTo(LineDiff.lines(GramWriter.write(a)));
    assertThat(LineDiff.apply(ta.lines(), ta.deltaTo(tb))).isEqualTo(tb.lines());
  }

  /**
   * A follower's side: the text after a revision's delta, parsing only the blocks the delta
   * touches, is the next state's text and document, whether the delta is the owner's (diffed
   * entity by entity) or any line diff of the two texts (its hunks need not start at a block).
   */
  @Property(tries = 400)
  void theTextAfterADeltaIsTheNextStatesText(@ForAll("steps") Step step) {
    GramDocument a = step.a();
    GramDocument b = step.b();
    CanonicalText ta = CanonicalText.of(a);
    CanonicalText tb = ta.next(b);
    for (List<Revision.Hunk> delta : List.of(ta.deltaTo(tb), LineDiff.diff(ta.lines(), tb.lines()))) {
      CanonicalText after = ta.afterDelta(delta);
      assertThat(after).as("delta %s", delta).isNotNull();
      assertThat(after.sha256()).isEqualTo(tb.sha256());
      assertThat(after.document()).isEqualTo(b);
      assertThat(after.lines()).isEqualTo(tb.lines());
      if (!delta.isEmpty() && !a.records().isEmpty() && b.records().size() > 1 && a.records().get(0) == b.records().get(0)
          && delta.get(0).start() > CanonicalText.of(new GramDocument(a.owner(), List.of(a.records().get(0))))
              .lines().size()) {
        assertThat(after.document().records().get(0)).as("a record far before the change is kept")
            .isSameAs(a.records().get(0));
      }
    }
  }

  /**
   * Hunks that do not fit the text give nothing; for any other line inserted anywhere, a text
   * with the hash of the text the delta gives holds that text's document.
   */
  @Property(tries = 300)
  void aTextAfterAnyDeltaWithTheRightHashHoldsTheRightDocument(
      @ForAll("documents") GramDocument a, @ForAll java.util.Random random) {
    CanonicalText ta = CanonicalText.of(a);
    int total = ta.lines().size();
    assertThat(ta.afterDelta(List.of(new Revision.Hunk(total + 1, 0, List.of("x"))))).isNull();
    String[] candidates = {"TASK x", "TASK x y", "t added", "", "::notes", "::end", "-> rel doc-a", "doc doc-b"};
    List<Revision.Hunk> delta = List.of(new Revision.Hunk(
        random.nextInt(total + 1), 0, List.of(candidates[random.nextInt(candidates.length)])));
    String text = LineDiff.join(LineDiff.apply(ta.lines(), delta));
    CanonicalText after = ta.afterDelta(delta);
    if (after != null && after.sha256().equals(Hashes.sha256(text))) {
      assertThat(GramParser.parse(text)).isInstanceOfSatisfying(GramParser.Success.class,
          ok -> assertThat(ok.file().state()).isEqualTo(after.document()));
    }
  }

  /** Each edit acts on the record at its position: 0 keep, 1 drop, 2 keep and insert, 3 replace. */
  static GramDocument derive(GramDocument a, GramDocument other, List<Integer> edits) {
    Set<String> ids = new HashSet<>();
    ids.add(a.owner().id());
    List<Entity> extra = new ArrayList<>();
    for (Entity e : other.records()) {
      if (a.record(e.id()) == null && !e.id().equals(a.owner().id())) {
        extra.add(e);
      }
    }
    List<Entity> out = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < a.records().size(); i++) {
      int op = i < edits.size() ? edits.get(i) : 0;
      Entity r = a.records().get(i);
      switch (op) {
        case 1 -> {}
        case 2 -> {
          out.add(r);
          if (next < extra.size()) {
            out.add(extra.get(next++));
          }
        }
        case 3 -> out.add(new Entity(r.type(), r.id(), List.of(new Field("t", List.of("replaced " + i))), r.links(), r.blocks()));
        default -> out.add(r);
      }
    }
    while (next < extra.size() && edits.size() > a.records().size()) {
      out.add(extra.get(next++));
    }
    List<Entity> unique = new ArrayList<>();
    for (Entity e : out) {
      if (ids.add(e.id())) {
        unique.add(e);
      }
    }
    Entity owner = edits.contains(3) && edits.get(0) == 3
        ? new Entity(EntityType.DOCUMENT, a.owner().id(), List.of(new Field("t", List.of("New title"))), List.of(), a.owner().blocks())
        : a.owner();
    return new GramDocument(owner, unique);
  }

  @Provide
  Arbitrary<GramDocument> documents() {
    return GramRoundTripProperties.documents();
  }

  @Provide
  Arbitrary<Step> steps() {
    Arbitrary<List<Integer>> edits = Arbitraries.integers().between(0, 3).list().ofMaxSize(10);
    return Combinators.combine(documents(), documents(), edits)
        .as((a, other, e) -> new Step(a, derive(a, other, e)));
  }
}
