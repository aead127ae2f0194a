package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
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

/** parse(write(d)) = d for generated documents, and the parser is total. */
class GramRoundTripProperties {

  @Property(tries = 300)
  void writeThenParseGivesTheSameDocument(@ForAll("documents") GramDocument doc) {
    String text = GramWriter.write(doc);
    GramParser.Result r = GramParser.parse(text);
    assertThat(r).isInstanceOf(GramParser.Success.class);
    GramDocument back = ((GramParser.Success) r).file().state();
    assertThat(back).isEqualTo(doc);
    assertThat(GramWriter.write(back)).isEqualTo(text);
  }

  @Property(tries = 100)
  void historyRoundTripsAndVerifies(@ForAll("documentLists") List<GramDocument> states) throws Exception {
    History h = historyOf(states);
    GramDocument last = states.get(states.size() - 1);
    String file = new GramFile(last, h.revisions(), h.headRev(), h.head().chain()).write();
    assertThat(new String(h.fileBytes(last), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(file);
    GramFile parsed = GramParser.parseOrThrow(file);
    assertThat(parsed.history()).isEqualTo(h.revisions());
    History verified = History.verify(parsed.history(), parsed.headRev(), parsed.headChain());
    for (int i = 0; i < states.size(); i++) {
      assertThat(verified.stateAt(i)).isEqualTo(states.get(i));
    }
  }

  /**
   * A history recognises the file a checkpoint of any of its prefixes writes, and nothing else:
   * not a byte changed, dropped or added anywhere, not a prefix's history under another state.
   */
  @Property(tries = 100)
  void aCheckpointOfAPrefixIsRecognisedAndNothingElse(
      @ForAll("documentLists") List<GramDocument> states, @ForAll java.util.Random random) throws Exception {
    History h = historyOf(states);
    for (int p = 1; p <= states.size(); p++) {
      byte[] file = h.prefix(p).fileBytes(states.get(p - 1));
      assertThat(h.persistedIn(file)).as("prefix %d", p).isEqualTo(p);
      int at = random.nextInt(file.length);
      byte[] changed = file.clone();
      changed[at] ^= (byte) (1 + random.nextInt(127));
      assertThat(h.persistedIn(changed)).as("byte %d of prefix %d changed", at, p).isEqualTo(-1);
      assertThat(h.persistedIn(java.util.Arrays.copyOf(file, file.length - 1))).as("last byte dropped").isEqualTo(-1);
      assertThat(h.persistedIn(java.util.Arrays.copyOf(file, file.length + 1))).as("a byte added").isEqualTo(-1);
      GramDocument other = states.get(random.nextInt(states.size()));
      if (!GramWriter.write(other).equals(GramWriter.write(states.get(p - 1)))) {
        assertThat(h.persistedIn(h.prefix(p).fileBytes(other))).as("another state over prefix %d", p).isEqualTo(-1);
      }
    }
  }

  static History historyOf(List<GramDocument> states) {
    History h = null;
    String prevText = "";
    for (int i = 0; i < states.size(); i++) {
      GramDocument s = states.get(i);
      String text = GramWriter.write(s);
      List<String> lines = LineDiff.lines(text);
      Revision r =
          new Revision(
              i,
              Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i),
              i % 2 == 0 ? null : "2025-12-" + (10 + i % 18),
              Revision.AGENT,
              "agent \"" + i + "\"",
              i == 0 ? null : "req-" + i,
              i == 0 ? null : Hashes.sha256("intent " + i),
              StateDiff.changes(i == 0 ? null : states.get(i - 1), s),
              LineDiff.diff(LineDiff.lines(prevText), lines),
              Hashes.sha256(text),
              "");
      r = HistoryCodec.sealed(h == null ? null : h.head().chain(), r);
      h = h == null ? History.first(r, lines) : h.append(r, lines);
      prevText = text;
    }
    return h;
  }

  @Property(tries = 500)
  void parserIsTotal(@ForAll("noise") String text) {
    GramParser.Result r = GramParser.parse(text);
    if (r instanceof GramParser.Failure f) {
      assertThat(f.line()).isGreaterThanOrEqualTo(1);
      assertThat(f.message()).isNotBlank();
    }
  }

  @Property(tries = 300)
  void linesDiffAndApply(@ForAll("lineLists") List<String> a, @ForAll("lineLists") List<String> b) {
    assertThat(LineDiff.apply(a, LineDiff.diff(a, b))).isEqualTo(b);
  }

  // ------------------------------------------------------------------ generators

  @Provide
  Arbitrary<String> noise() {
    Arbitrary<String> line =
        Arbitraries.oneOf(
            Arbitraries.of("@gram 2", "doc d1", "TSK t1", "t title", "::rich", "::end", "-> supports t1",
                "@history 0 " + "a".repeat(64), "@rev 0", "\\::x", "tag \"q", "", "x", "task 9", "REL r"),
            Arbitraries.strings().ofMaxLength(20));
    return line.list().ofMaxSize(12).map(l -> String.join("\n", l));
  }

  @Provide
  Arbitrary<List<String>> lineLists() {
    return Arbitraries.of("a", "b", "c", "d", "", "::end").list().ofMaxSize(30);
  }

  @Provide
  Arbitrary<List<GramDocument>> documentLists() {
    return documents().list().ofMinSize(1).ofMaxSize(6);
  }

  static Arbitrary<String> values() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange(' ', '~').ofMinLength(0).ofMaxLength(20),
        // Any Unicode text, but not half of a surrogate pair: files are UTF-8.
        Arbitraries.strings().all().ofMaxLength(12).filter(GramRoundTripProperties::isUnicode),
        Arbitraries.of("", " lead", "trail ", "\"quoted\"", "line\nbreak", "tab\tin", "emoji 🚀", "back\\slash"));
  }

  static boolean isUnicode(String s) {
    return java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(s);
  }

  static Arbitrary<String> blockTexts() {
    Arbitrary<String> line =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(15),
            Arbitraries.of("::end", "::rich", "\\::end", "\\\\::x", "@history 1", "", "  ", "# Heading", "\r"));
    return line.list().ofMaxSize(6).map(l -> String.join("\n", l));
  }

  static Arbitrary<String> keys() {
    return Arbitraries.of("t", "d", "x", "p", "tag", "source", "ref", "owner", "due", "at", "value", "unit",
        "observed", "color", "custom-key", "k.v", "camelCase");
  }

  static Arbitrary<String> ids() {
    return Arbitraries.strings().withChars("abcxyz0123_.:-").ofMinLength(1).ofMaxLength(8)
        .filter(Syntax::isId);
  }

  static Arbitrary<List<Field>> fields() {
    return Combinators.combine(keys(), values().list().ofMinSize(1).ofMaxSize(3))
        .as(Field::new)
        .list()
        .ofMaxSize(5)
        .map(GramRoundTripProperties::distinctKeys);
  }

  static List<Field> distinctKeys(List<Field> fs) {
    Set<String> seen = new HashSet<>();
    List<Field> out = new ArrayList<>();
    for (Field f : fs) {
      if (seen.add(f.key())) {
        out.add(f);
      }
    }
    return out;
  }

  static Arbitrary<List<Block>> blocks(boolean owner) {
    Arbitrary<String> names = owner ? Arbitraries.of("rich", "notes") : Arbitraries.of("reason", "summary", "quote");
    return Combinators.combine(names, blockTexts()).as(Block::new).list().ofMaxSize(2)
        .map(bs -> {
          Set<String> seen = new HashSet<>();
          List<Block> out = new ArrayList<>();
          for (Block b : bs) {
            if (seen.add(b.name())) {
              out.add(b);
            }
          }
          return out;
        });
  }

  static Arbitrary<List<Link>> links() {
    return Combinators.combine(Arbitraries.of(Link.PREDICATES), ids(), Arbitraries.of("", "d_other/"))
        .as((p, id, prefix) -> new Link(p, prefix + id))
        .list()
        .ofMaxSize(3);
  }

  @Provide
  static Arbitrary<GramDocument> documents() {
    Arbitrary<Entity> owner =
        Combinators.combine(ids(), fields(), blocks(true))
            .as((id, fs, bs) -> new Entity(EntityType.DOCUMENT, "doc-" + id, fs, List.of(), bs));
    Arbitrary<EntityType> types = Arbitraries.of(EntityType.values()).filter(EntityType::isRecord);
    Arbitrary<Entity> record =
        Combinators.combine(types, ids(), fields(), links(), blocks(false))
            .as((ty, id, fs, ls, bs) -> new Entity(ty, id, fs, ls, bs));
    return Combinators.combine(owner, record.list().ofMaxSize(6))
        .as(
            (o, rs) -> {
              Set<String> seen = new HashSet<>();
              seen.add(o.id());
              List<Entity> unique = new ArrayList<>();
              for (Entity r : rs) {
                if (seen.add(r.id())) {
                  unique.add(r);
                }
              }
              return new GramDocument(o, unique);
            });
  }
}
