package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A note's conversion, clause by clause, without a vault. */
class MarkdownNoteTest {
  private static final String ID = "d_0123456789abcdef0123456789abcdef";
  private static final MarkdownNote.Target OTHER = new MarkdownNote.Target("b/other.gram", "d_ffffffffffffffffffffffffffffffff");

  private static MarkdownNote.Converted convert(String md) {
    return MarkdownNote.convert(md, "file-name", ID, name -> MarkdownNote.linkKey(name).equals("other note") ? OTHER : null);
  }

  @Test
  void frontMatterBecomesFieldsInEveryListFormAndOddLinesAreReported() {
    FrontMatter fm = FrontMatter.parse("---\ntitle: 'It''s'\ntags: [a, \"b, c\"]\nlist:\n  - x\n  - y\nn: 3 # comment\nbad line\nnested: {a: 1}\n---\n\nBody\n");
    assertThat(List.copyOf(fm.values().keySet())).containsExactly("title", "tags", "list", "n");
    assertThat(fm.values().get("title")).containsExactly("It's");
    assertThat(fm.values().get("tags")).containsExactly("a", "b, c");
    assertThat(fm.values().get("list")).containsExactly("x", "y");
    assertThat(fm.values().get("n")).containsExactly("3");
    assertThat(fm.rest()).isEqualTo("Body\n");
    assertThat(fm.problems()).hasSize(2);
    assertThat(FrontMatter.parse("---\nno end\n").problems()).containsExactly("front matter has no closing ---; kept as text");
  }

  @Test
  void tasksBecomeRecordsPlacedWhereTheyStoodOutsideCodeOnly() {
    MarkdownNote.Converted c = convert("# Title here\n\n- [ ] one\n- [x] two\n  - [ ] nested\n\n```\n- [ ] code\n```\n");
    assertThat(c.title()).isEqualTo("Title here");
    assertThat(c.tasks()).isEqualTo(2);
    JsonArray records = c.content().getJsonArray("records");
    assertThat(records.getJsonObject(0).getJsonObject("fields").getJsonArray("x").getString(0)).isEqualTo("open");
    assertThat(records.getJsonObject(1).getJsonObject("fields").getJsonArray("x").getString(0)).isEqualTo("done");
    String body = c.content().getString("text");
    assertThat(body).contains("[[" + records.getJsonObject(0).getString("id") + "]]", "  - [ ] nested", "- [ ] code")
        .doesNotContain("- [ ] one").doesNotEndWith("\n");
    assertThat(c.problems()).containsExactly("1 indented task item kept as text (only top-level - [ ] items become tasks)");
  }

  @Test
  void wikiLinksToImportedNotesBecomeLinksAndTheRestText() {
    MarkdownNote.Converted c = convert("See [[Other Note]], [[other-note|that one]] and [[Nowhere]] and ![[pic.png]].");
    assertThat(c.content().getString("text"))
        .isEqualTo("See [Other Note](b/other.gram), [that one](b/other.gram) and Nowhere and pic.png.");
    assertThat(c.links()).isEqualTo(1);
    JsonObject rel = c.content().getJsonArray("records").getJsonObject(0);
    assertThat(rel.getString("type")).isEqualTo("relation");
    assertThat(rel.getJsonObject("fields").getJsonArray("to").getString(0)).isEqualTo(OTHER.documentId() + "/" + OTHER.documentId());
    assertThat(c.problems()).anyMatch(p -> p.startsWith("wiki link [[Nowhere]]")).anyMatch(p -> p.startsWith("embedded file ![[pic.png]]"));
  }

  @Test
  void aTitleFallsBackToTheFileNameAndBadKeysAreLeftOut() {
    MarkdownNote.Converted c = convert("---\n9lives: x\nTSK: y\ntags: q\n---\nNo heading.\n");
    assertThat(c.title()).isEqualTo("file-name");
    assertThat(c.content().getJsonObject("fields").getMap()).containsOnlyKeys("tag");
    assertThat(c.problems()).hasSize(2);
  }

  @Test
  void pathsAreVaultSafe() {
    assertThat(NotePaths.documentPath(java.nio.file.Path.of("My Notes/.. odd: name?.md"))).isEqualTo("My-Notes/odd-name-.gram");
    assertThat(NotePaths.segment("@mounts")).isEqualTo("mounts");
  }
}
