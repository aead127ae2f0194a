package dev.gram.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.tools.support.BodyRefs;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The renderer without a browser: the profile's rules, every block type, and nothing an agent writes runs. */
class DocumentHtmlTest {

  static Entity rec(EntityType type, String id, String... kv) {
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      fields.add(new Field(kv[i], List.of(kv[i + 1])));
    }
    return new Entity(type, id, fields, List.of(), List.of());
  }

  static GramDocument doc(String body, Entity... records) {
    Entity owner = new Entity(EntityType.DOCUMENT, "d_1", List.of(new Field("t", List.of("T"))), List.of(),
        List.of(new Block(Block.RICH, body)));
    return new GramDocument(owner, List.of(records));
  }

  static String render(GramDocument d, boolean editable) {
    DocumentHtml.Frame frame = new DocumentHtml.Frame("p/d.gram", "/ui/doc/p/d.gram", new BodyRefs(d, id -> null),
        id -> null, editable, Set.of());
    return new DocumentHtml(frame).render();
  }

  static List<String> shown(String html) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("data-shown=\"([a-z-]+)\"").matcher(html);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void itemViewsFollowTheProfile() {
    GramDocument d = doc("[[t1]]\n\n[[m1]]\n\n[[a1]]\n\n[[a2]]\n\n[[k1]]\n\n[[nope]]\n",
        rec(EntityType.TASK, "t1", "t", "Task"),
        rec(EntityType.METRIC, "m1", "t", "M", "value", "3", "unit", "kg"),
        rec(EntityType.ASSET, "a1", "t", "Pic", "ref", "img/x.PNG"),
        rec(EntityType.ASSET, "a2", "t", "Sheet", "ref", "files/x.xlsx"),
        rec(EntityType.KNOWLEDGE, "k1", "t", "Fact"));
    assertThat(shown(render(d, true))).containsExactly("task-row", "metric", "image", "line", "line", "unresolved");
  }

  @Test
  void collectionsFollowTheProfileAndBoardIsABoard() {
    GramDocument tasks = doc("[[*]]{type=task}\n\n[[*]]{type=task view=table}\n\n[[*]]{type=knowledge}\n\n"
            + "[[*]]{type=goal}\n\n[[*]]{type=knowledge view=list}\n\n[[*]]{type=task view=board}\n",
        rec(EntityType.TASK, "t1", "t", "A", "x", "open"), rec(EntityType.KNOWLEDGE, "k1", "t", "B"));
    List<String> views = shown(render(tasks, false));
    // the collections first, then the two records the body does not place
    assertThat(views.subList(0, 6)).containsExactly("list", "table", "table", "table", "list", "board");
  }

  @Test
  void descriptionsComeFromDOrTheReasonSummaryQuoteBlocks() {
    Entity r = new Entity(EntityType.RISK, "r1", List.of(new Field("t", List.of("R"))), List.of(),
        List.of(new Block("summary", "From the summary")));
    String html = render(doc("[[r1]]\n", r), false);
    assertThat(html).contains("<span class=\"desc muted\">From the summary</span>");
  }

  @Test
  void nothingAnAgentWritesBecomesMarkupOrScript() {
    GramDocument d = doc("# <script>alert(1)</script>\n\n[x](javascript:alert(1)) and [y](data:text/html,hi) "
            + "and <img src=x onerror=alert(1)>\n\n![p](https://evil.example/track.png)\n\n[[t1]]\n",
        rec(EntityType.TASK, "t1", "t", "\"><script>alert(2)</script>"));
    String html = render(d, true);
    assertThat(html).doesNotContain("<script").doesNotContain("javascript:").doesNotContain("<img")
        .doesNotContain("href=\"data:").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
  }

  @Test
  void everyBlockTypeHasItsElement() {
    String body = String.join("\n", "# H", "", "Para *em* **b** `c` ~~s~~", "", "- a", "  - b", "- c", "", "| x | y |",
        "|---|---|", "| 1 | 2 \\| 3 |", "", "> q", "", "> [!tip] Title", "> body", "", "```js", "x()", "```", "", "$$",
        "a^2", "$$", "", "---", "", "![alt](data:image/png;base64,AAAA)");
    String html = render(doc(body), false);
    assertThat(html).contains("<h2 data-node=").contains("<em>em</em>").contains("<strong>b</strong>")
        .contains("<code>c</code>").contains("<del>s</del>").contains("<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>")
        .contains("<th scope=\"col\">x</th>").contains("<td>2 | 3</td>").contains("<blockquote")
        .contains("callout-tip").contains("class=\"language-js\"").contains("a^2").contains("<hr")
        .contains("<img src=\"data:image/png;base64,AAAA\" alt=\"alt\">");
  }

  @Test
  void linksLeadToDocumentsAndMentionsToRecords() {
    GramDocument d = doc("See [it](@t1), [gone](@x9), [doc](other/n.gram#k2) and [web](https://example.org).\n",
        rec(EntityType.TASK, "t1", "t", "A"));
    String html = render(d, false);
    assertThat(html).contains("href=\"/ui/doc/p/d.gram#r-t1\"").contains("mention unresolved")
        .contains("href=\"/ui/doc/other/n.gram#r-k2\"").contains("href=\"https://example.org\" rel=\"noreferrer noopener\"");
  }

  @Test
  void aPastStateOffersNoEdits() {
    GramDocument d = doc("[[t1]]\n", rec(EntityType.TASK, "t1", "t", "A", "x", "completed"));
    assertThat(render(d, false)).doesNotContain("<button").contains("disabled checked");
    assertThat(render(d, true)).contains("role=\"checkbox\"").contains("aria-checked=\"true\"")
        .contains("value=\"t1 open\"");
  }

  @Test
  void linkTargetsNeverLeaveForScriptsOrFiles() {
    assertThat(Links.target("javascript:alert(1)", id -> null)).isNull();
    assertThat(Links.target("file:///etc/passwd", id -> null)).isNull();
    assertThat(Links.target("../secret.gram", id -> null)).isNull();
    assertThat(Links.target("gram://a/b.gram", id -> null)).isEqualTo("/ui/doc/a/b.gram");
    assertThat(Links.target("MAILTO:a@b", id -> null)).isEqualTo("MAILTO:a@b");
  }

  @Test
  void aLinkOfRelations() {
    Entity rel = new Entity(EntityType.RELATION, "rel1",
        List.of(new Field("from", List.of("a")), new Field("rel", List.of("blocks")), new Field("to", List.of("b"))),
        List.of(new Link("related", "a")), List.of());
    assertThat(render(doc("", rel), false)).contains("a blocks b");
  }
}
