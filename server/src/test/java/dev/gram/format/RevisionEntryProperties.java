package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A revision is held as its entry's bytes and reads its parts back from them: every part given
 * to the constructor comes back unchanged, whatever text its values and hunk lines hold (a line
 * of a hunk that looks like a key's line must not be taken for one), and the entry parses back
 * to the same revision.
 */
class RevisionEntryProperties {

  @Property(tries = 500)
  void everyPartComesBackFromTheBytes(
      @ForAll @IntRange(max = 1_000_000) int rev,
      @ForAll("times") Instant at,
      @ForAll("maybeValues") String effectiveAt,
      @ForAll("actors") String actor,
      @ForAll("values") String by,
      @ForAll("maybeValues") String requestId,
      @ForAll("maybeHashes") String digest,
      @ForAll("changeLists") List<Revision.Change> changes,
      @ForAll("deltas") List<Revision.Hunk> delta,
      @ForAll("hashes") String stateHash,
      @ForAll("hashes") String chain) {
    Revision r = new Revision(rev, at, effectiveAt, actor, by, requestId, digest, changes, delta, stateHash, "");
    Revision sealed = r.withChain(chain);
    for (Revision x : List.of(r, sealed)) {
      assertThat(x.rev()).isEqualTo(rev);
      assertThat(x.recordedAt()).isEqualTo(at);
      assertThat(x.effectiveAt()).isEqualTo(effectiveAt);
      assertThat(x.actor()).isEqualTo(actor);
      assertThat(x.by()).isEqualTo(by);
      assertThat(x.requestId()).isEqualTo(requestId);
      assertThat(x.digest()).isEqualTo(digest);
      assertThat(x.changes()).isEqualTo(changes);
      assertThat(x.delta()).isEqualTo(delta);
      assertThat(x.stateHash()).isEqualTo(stateHash);
      assertThat(x.text()).isEqualTo(r.text());
    }
    assertThat(r.chain()).isEmpty();
    assertThat(sealed.chain()).isEqualTo(chain);
    assertThat(GramParser.parseRevision(HistoryCodec.fileEntry(sealed))).isEqualTo(sealed);
  }

  @Provide
  Arbitrary<Instant> times() {
    return Arbitraries.longs().between(0, 4_000_000_000_000L).map(Instant::ofEpochMilli);
  }

  @Provide
  Arbitrary<String> actors() {
    return Arbitraries.of(Revision.AGENT, Revision.EXTERNAL, Revision.IMPORT);
  }

  @Provide
  Arbitrary<String> values() {
    return GramRoundTripProperties.values();
  }

  @Provide
  Arbitrary<String> maybeValues() {
    return GramRoundTripProperties.values().injectNull(0.3);
  }

  @Provide
  Arbitrary<String> hashes() {
    return Arbitraries.strings().withChars("0123456789abcdef").ofLength(64);
  }

  @Provide
  Arbitrary<String> maybeHashes() {
    return hashes().injectNull(0.3);
  }

  @Provide
  Arbitrary<List<Revision.Change>> changeLists() {
    Arbitrary<String> types = Arbitraries.of("doc", "task", "decision", "evidence");
    Arbitrary<Revision.Change> change = Arbitraries.oneOf(
        Combinators.combine(GramRoundTripProperties.ids(), types).as(Revision.Change::added),
        Combinators.combine(GramRoundTripProperties.ids(), GramRoundTripProperties.keys().list().ofMaxSize(3))
            .as(Revision.Change::changed),
        Combinators.combine(GramRoundTripProperties.ids(), types).as(Revision.Change::removed));
    return change.list().ofMaxSize(4);
  }

  @Provide
  Arbitrary<List<Revision.Hunk>> deltas() {
    // Lines of canonical text: anything but a line end, including lines that read like the
    // entry's own keys.
    Arbitrary<String> line = Arbitraries.oneOf(
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(20),
        Arbitraries.strings().all().ofMaxLength(8)
            .filter(s -> s.indexOf('\n') < 0 && GramRoundTripProperties.isUnicode(s)),
        Arbitraries.of("", "state x", "chain y", "chg + a task", "diff 1 2", "by someone", "req r-1", "|bar",
            "@rev 3"));
    Arbitrary<Revision.Hunk> hunk = Combinators.combine(
            Arbitraries.integers().between(0, 10_000), Arbitraries.integers().between(0, 50), line.list().ofMaxSize(4))
        .as(Revision.Hunk::new);
    return hunk.list().ofMaxSize(3);
  }
}
