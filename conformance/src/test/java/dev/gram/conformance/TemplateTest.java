package dev.gram.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The case language as conformance/README.md describes it. */
class TemplateTest {
  private final Map<String, JsonNode> vars = new HashMap<>();

  private static JsonNode j(String json) {
    try {
      return Json.parse(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  private String match(String template, String actual) {
    return Template.match(j(template), j(actual), vars);
  }

  @Test
  void placeholdersKeepTheirTypeWhenTheyAreTheWholeString() {
    vars.put("rev", IntNode.valueOf(3));
    vars.put("run", TextNode.valueOf("cf01"));
    assertThat(Template.expand(j("{\"base_revision\":\"${rev}\",\"path\":\"${run}-x/doc.gram\",\"n\":\"$${run}\"}"), vars))
        .isEqualTo(j("{\"base_revision\":3,\"path\":\"cf01-x/doc.gram\",\"n\":\"${run}\"}"));
    assertThatThrownBy(() -> Template.expand(j("\"${nope}\""), vars)).hasMessageContaining("no value for ${nope}");
  }

  @Test
  void generators() {
    assertThat(Template.expand(j("{\"$repeat\":\"ab\",\"times\":3}"), vars)).isEqualTo(TextNode.valueOf("ababab"));
    assertThat(Template.expand(j("{\"$join\":[\"a\",{\"$repeat\":\"b\",\"times\":2},\"c\"]}"), vars)).isEqualTo(TextNode.valueOf("abbc"));
    assertThat(Template.expand(j("{\"$generate\":{\"p\":\"d${i}.gram\"},\"count\":2}"), vars))
        .isEqualTo(j("[{\"p\":\"d1.gram\"},{\"p\":\"d2.gram\"}]"));
  }

  @Test
  void objectsAreExactUnlessPartial() {
    assertThat(match("{\"a\":1}", "{\"a\":1}")).isNull();
    assertThat(match("{\"a\":1}", "{\"a\":1,\"b\":2}")).contains("unexpected key(s) [b]");
    assertThat(match("{\"$partial\":true,\"a\":1}", "{\"a\":1,\"b\":2}")).isNull();
    assertThat(match("{\"a\":1,\"$optional\":{\"b\":\"<int>\"}}", "{\"a\":1}")).isNull();
    assertThat(match("{\"a\":1,\"$optional\":{\"b\":\"<int>\"}}", "{\"a\":1,\"b\":\"x\"}")).contains("/b");
    assertThat(match("{\"a\":1,\"b\":\"<absent>\",\"$partial\":true}", "{\"a\":1,\"b\":2}")).contains("/b");
    assertThat(match("{\"a\":1}", "{}")).contains("/a: expected 1, got (nothing)");
  }

  @Test
  void arraysByLengthElementOrMembership() {
    assertThat(match("[1,2]", "[1,2]")).isNull();
    assertThat(match("[1,2]", "[1,2,3]")).contains("an array of 2");
    assertThat(match("{\"$each\":[\"<string>\",\"<int>\"]}", "[[\"a\",1],[\"b\",2]]")).isNull();
    assertThat(match("{\"$each\":[\"<string>\",\"<int>\"]}", "[[\"a\",1],[\"b\"]]")).contains("/1");
    assertThat(match("{\"$each\":\"<any>\",\"$minLength\":1}", "[]")).contains("at least 1");
    assertThat(match("{\"$contains\":[[\"b\",2]]}", "[[\"a\",1],[\"b\",2]]")).isNull();
    assertThat(match("{\"$contains\":[[\"c\",3]]}", "[[\"a\",1]]")).contains("no element matches");
    assertThat(match("{\"$unordered\":[2,1]}", "[1,2]")).isNull();
    assertThat(match("{\"$unordered\":[2,2]}", "[1,2]")).contains("no element matches");
  }

  @Test
  void matchers() {
    assertThat(match("\"<hex16>\"", "\"d4344a16bec94a0a\"")).isNull();
    assertThat(match("\"<hex16>\"", "\"d4344a16bec94a0\"")).isNotNull();
    assertThat(match("\"<time>\"", "\"2026-10-12T23:10:31.898Z\"")).isNull();
    assertThat(match("\"<time|null>\"", "null")).isNull();
    assertThat(match("\"<int>\"", "1.5")).isNotNull();
    assertThat(match("1", "1.0")).isNull();
    assertThat(match("\"<<literal>\"", "\"<literal>\"")).isNull();
    assertThat(match("{\"$anyOf\":[\"<int>\",\"<null>\"]}", "null")).isNull();
    assertThat(match("{\"$allOf\":[\"<hex16>\",{\"$not\":\"d4344a16bec94a0a\"}]}", "\"d4344a16bec94a0a\"")).contains("anything but");
    assertThat(match("{\"$values\":\"<string>\"}", "{\"a\":\"x\",\"b\":\"y\"}")).isNull();
  }

  @Test
  void regularExpressionsMatchWholeStringsAndQuoteTheirPlaceholders() {
    vars.put("doc", TextNode.valueOf("p.x/doc.gram"));
    assertThat(match("\"<re:${doc}#[^#]+>\"", "\"p.x/doc.gram#d_1\"")).isNull();
    assertThat(match("\"<re:${doc}#[^#]+>\"", "\"pax/doc.gram#d_1\"")).isNotNull(); // the dot is literal
    assertThat(match("\"<re:a.c>\"", "\"a\\nc\"")).isNull();
    assertThat(match("\"<re:b>\"", "\"abc\"")).isNotNull();
  }

  @Test
  void savedValuesCompareAsJson() {
    vars.put("answer", j("{\"doc\":{\"rev\":1}}"));
    assertThat(match("\"${answer}\"", "{\"doc\":{\"rev\":1}}")).isNull();
    assertThat(match("\"${answer}\"", "{\"doc\":{\"rev\":2}}")).isNotNull();
  }

  @Test
  void commandLinesSplitLikeAShell() {
    assertThat(Words.split("java -jar 'my dir/gram.jar' --vault \"a \\\"b\\\"\" x\\ y"))
        .isEqualTo(List.of("java", "-jar", "my dir/gram.jar", "--vault", "a \"b\"", "x y"));
  }
}
