package dev.gram.tools.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

/** Cutting text into pages by its size in a JSON answer: pages fit, cover everything, split nothing. */
class JsonTextProperties {

  static int encodedSize(String s) {
    String json = new JsonArray().add(s).encode();
    return json.getBytes(StandardCharsets.UTF_8).length - 4; // without [" and "]
  }

  @Property
  void sizeIsTheBytesTheStringTakesInCompactJson(@ForAll @StringLength(max = 200) String s) {
    assertThat(JsonText.size(s)).isEqualTo(encodedSize(s));
  }

  @Property
  void pagesFitCoverTheTextAndNeverSplitASurrogatePair(
      @ForAll @StringLength(max = 400) String s, @ForAll @IntRange(min = 8, max = 120) int room) {
    StringBuilder joined = new StringBuilder();
    int from = 0;
    int guard = 0;
    while (from < s.length()) {
      int end = JsonText.cut(s, from, room);
      assertThat(end).isGreaterThan(from);
      String piece = s.substring(from, end);
      assertThat(JsonText.size(piece)).isLessThanOrEqualTo(room);
      assertThat(Character.isHighSurrogate(s.charAt(end - 1)) && end < s.length() && Character.isLowSurrogate(s.charAt(end))).isFalse();
      joined.append(piece);
      from = end;
      assertThat(++guard).isLessThan(10_000);
    }
    assertThat(joined.toString()).isEqualTo(s);
  }

  @Property
  void plainTextCutKeepsTheLimitAndMarksTheCut(@ForAll @StringLength(max = 300) String s, @ForAll @IntRange(min = 2, max = 100) int max) {
    String cut = PlainText.cut(s, max);
    assertThat(cut.length()).isLessThanOrEqualTo(max);
    if (s.length() <= max) {
      assertThat(cut).isEqualTo(s);
    } else {
      assertThat(cut).endsWith("…");
      assertThat(s).startsWith(cut.substring(0, cut.length() - 1));
    }
  }

  @Property
  void shortDateKeepsTheDayOfAnythingThatStartsWithOne(@ForAll @IntRange(min = 1000, max = 9999) int year, @ForAll @StringLength(max = 20) String rest) {
    String day = year + "-04-09";
    assertThat(RecordFacts.shortDate(day + rest)).isEqualTo(day);
    assertThat(RecordFacts.shortDate(year + "-04")).isEqualTo(year + "-04");
  }
}
