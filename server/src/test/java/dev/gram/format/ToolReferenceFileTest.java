package dev.gram.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import dev.gram.testing.SharedContract;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one real .gram file we have, the exported tool reference, must read as what it is. */
class ToolReferenceFileTest {

  @Test
  void readsOwnerBodyAndSourceRecords() {
    String text = SharedContract.text(SharedContract.TOOL_REFERENCE);
    GramFile file = GramParser.parseOrThrow(text);
    GramDocument doc = file.state();

    assertThat(file.hasHistory()).isFalse();
    assertThat(doc.id()).isEqualTo("portal-reference-mcp-tools");
    assertThat(doc.title()).isEqualTo("MCP tools");
    assertThat(doc.owner().first("view")).isEqualTo("document");
    assertThat(doc.owner().first("d")).startsWith("All 15 local and cloud gram_* tool names");

    assertThat(doc.records()).hasSize(3);
    assertThat(doc.records()).extracting(Entity::type).containsOnly(EntityType.SOURCE);
    assertThat(doc.records()).extracting(Entity::id)
        .containsExactly("format-language", "format-rich", "format-history6");
    Entity lang = doc.record("format-language");
    assertThat(lang.first("t")).isEqualTo(".gram language specification");
    assertThat(lang.first("ref")).isEqualTo("https://github.com/clab-one/thegram-format/blob/main/spec/language.md");
    assertThat(doc.record("format-history6").first("t")).isEqualTo("Current History/6 specification");
  }

  @Test
  void bodyHasTheHeadingOutlineOfItsMarkdown() {
    GramDocument doc = GramParser.parseOrThrow(SharedContract.text(SharedContract.TOOL_REFERENCE)).state();
    Body body = Body.parse(doc.body());
    List<BodyNode> headings =
        body.nodes().stream().filter(n -> n.type() == NodeType.HEADING).toList();

    assertThat(headings.get(0).level()).isEqualTo(1);
    assertThat(headings.get(0).text()).isEqualTo("MCP tools");
    assertThat(headings.get(1).text()).isEqualTo("Tool contracts");
    // One level-3 heading per tool, in the reference's order.
    List<String> tools =
        headings.stream().filter(h -> h.level() == 3).map(BodyNode::text).toList();
    assertThat(tools).hasSize(15).first().isEqualTo("`gram_profile`");
    assertThat(tools).last().isEqualTo("`gram_patch`");
    // JSON inside code fences is code, not structure.
    assertThat(body.nodes()).anyMatch(n -> n.type() == NodeType.CODE && "json".equals(n.attrs().get("lang")));
  }

  @Test
  void bodyTextIsKeptExactly() {
    String text = SharedContract.text(SharedContract.TOOL_REFERENCE);
    GramDocument doc = GramParser.parseOrThrow(text).state();
    int open = text.indexOf("::rich\n") + "::rich\n".length();
    int close = text.indexOf("\n::end\n");
    assertThat(doc.body()).isEqualTo(text.substring(open, close));
  }

  @Test
  void writingAndReadingAgainGivesTheSameDocument() {
    GramDocument doc = GramParser.parseOrThrow(SharedContract.text(SharedContract.TOOL_REFERENCE)).state();
    String written = GramWriter.write(doc);
    assertThat(GramParser.parseOrThrow(written).state()).isEqualTo(doc);
    assertThat(GramWriter.write(GramParser.parseOrThrow(written).state())).isEqualTo(written);
  }
}
