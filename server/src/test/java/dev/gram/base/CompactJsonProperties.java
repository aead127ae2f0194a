package dev.gram.base;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The wire bytes do not change: {@link CompactJson} writes what Vert.x's codec writes for any
 * value a tool can answer with, and its quoted text is that text as Vert.x writes a string.
 */
class CompactJsonProperties {

  @Property(tries = 500)
  void writesWhatVertxWrites(@ForAll("values") Object value) {
    String expected = Json.encode(value);
    assertThat(CompactJson.encode(value)).isEqualTo(expected);
    StringBuilder into = new StringBuilder("x");
    CompactJson.write(value, into);
    assertThat(into.toString()).isEqualTo("x" + expected);
  }

  @Property(tries = 500)
  void quotedIsTheTextAsAJsonString(@ForAll("values") Object value) {
    CompactJson.Quoted both = CompactJson.encodeQuoted(value);
    assertThat(both.text()).isEqualTo(Json.encode(value));
    assertThat(both.quoted()).isEqualTo(Json.encode(both.text()));
    assertThat(both.utf8Bytes()).isEqualTo(both.text().getBytes(StandardCharsets.UTF_8).length);
  }

  @Property(tries = 1000)
  void stringsAreEscapedAsVertxEscapesThem(@ForAll("text") String s) {
    StringBuilder out = new StringBuilder();
    CompactJson.string(s, out);
    assertThat(out.toString()).isEqualTo(Json.encode(s));
  }

  /** Every control character, a quote and a backslash: the table of escapes, whole. */
  @Test
  void everyCharacterThatNeedsEscapingIsEscapedAsVertxDoes() {
    StringBuilder s = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      s.append(c).append('a');
    }
    s.append("\u00e9\u2028\ud83d\ude00\ud800x");
    assertThat(CompactJson.encode(s.toString())).isEqualTo(Json.encode(s.toString()));
    CompactJson.Quoted quoted = CompactJson.encodeQuoted(new JsonArray().add(s.toString()).add(Instant.EPOCH));
    assertThat(quoted.quoted())
        .isEqualTo(Json.encode(Json.encode(new JsonArray().add(s.toString()).add(Instant.EPOCH))));
    assertThat(quoted.utf8Bytes()).isEqualTo(quoted.text().getBytes(StandardCharsets.UTF_8).length);
  }

  /**
   * The builders kept between calls: an answer larger than what is kept, then small ones, each
   * written whole and nothing of the one before; and from several threads at once.
   */
  @Test
  void eachCallWritesOnlyItsOwnValue() throws Exception {
    String big = "x".repeat(200_000) + "\u00e9";
    for (int round = 0; round < 3; round++) {
      CompactJson.Quoted large = CompactJson.encodeQuoted(new JsonArray().add(big));
      assertThat(large.text()).isEqualTo(Json.encode(new JsonArray().add(big)));
      assertThat(large.utf8Bytes()).isEqualTo(big.length() + 5);
      assertThat(CompactJson.encodeQuoted(new JsonObject().put("a", round)).text()).isEqualTo("{\"a\":" + round + "}");
      assertThat(CompactJson.encode(new JsonArray().add("\u00e9"))).isEqualTo("[\"\u00e9\"]");
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.List<java.util.concurrent.Future<Boolean>> all = new ArrayList<>();
      for (int t = 0; t < 64; t++) {
        int id = t;
        all.add(pool.submit(() -> {
          for (int i = 0; i < 2_000; i++) {
            JsonObject v = new JsonObject().put("thread", id).put("i", i).put("s", "n".repeat(i % 300));
            if (!CompactJson.encodeQuoted(v).text().equals(Json.encode(v)) || !CompactJson.encode(v).equals(Json.encode(v))) {
              return false;
            }
          }
          return true;
        }));
      }
      for (java.util.concurrent.Future<Boolean> f : all) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Provide
  Arbitrary<String> text() {
    Arbitrary<Character> tricky = Arbitraries.of('"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f',
        '\u00e9', '\u2028', '\ud83d', '\ude00', '/', '<');
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.strings().ascii().ofMaxLength(40),
        Arbitraries.strings().withChars('a', 'b', ' ', '"', '\\', '\n', '\u0001', '\u00e9', '\ud83d').ofMaxLength(30),
        tricky.list().ofMaxSize(12).map(cs -> {
          StringBuilder b = new StringBuilder();
          cs.forEach(b::append);
          return b.toString();
        }));
  }

  @Provide
  Arbitrary<Object> values() {
    return value(3);
  }

  private Arbitrary<Object> value(int depth) {
    Arbitrary<Object> leaf = Arbitraries.oneOf(
        text().map(s -> (Object) s),
        Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e-300, 1.0E21, 123456789.0).map(d -> (Object) d),
        Arbitraries.floats().map(f -> (Object) f),
        Arbitraries.shorts().map(s -> (Object) s),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null),
        Arbitraries.of(Instant.parse("2026-12-07T10:00:00Z"), new byte[] {1, 2, 3}).map(o -> o));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Object> inner = value(depth - 1);
    Arbitrary<Object> object = Arbitraries.maps(text(), inner).ofMaxSize(4).map(m -> (Object) new JsonObject(new LinkedHashMap<>(m)));
    Arbitrary<Object> array = inner.list().ofMaxSize(4).map(l -> (Object) new JsonArray(new ArrayList<>(l)));
    Arbitrary<Object> map = Arbitraries.maps(text(), inner).ofMaxSize(3).map(m -> (Object) new LinkedHashMap<String, Object>(m));
    Arbitrary<Object> list = inner.list().ofMaxSize(3).map(l -> (Object) new ArrayList<Object>(l));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, leaf), net.jqwik.api.Tuple.of(2, object), net.jqwik.api.Tuple.of(2, array),
        net.jqwik.api.Tuple.of(1, map), net.jqwik.api.Tuple.of(1, list));
  }
}
