package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bodies too long for one answer: gram_get's outline fits more by shortening labels and says how
 * to read the rest; gram_read's outline pages with a cursor. And sections are found by the heading
 * a person reads, not only by its md source.
 */
class LongBodiesTest extends ReadingTest {
  static final String LONG = "long/body.gram";
  static final String HEADINGS = "long/headings.gram";
  static final String MARKUP = "long/markup.gram";
  static final int PARAGRAPHS = 301;
  static final int SECTIONS = 400;

  @BeforeAll
  void fixture() {
    StringBuilder body = new StringBuilder("# Notes\n\n");
    for (int i = 0; i < PARAGRAPHS - 1; i++) {
      body.append("Paragraph ").append(i).append(" says something at length, ")
          .append("so that its label is as long as an outline label can be and then some more.\n\n");
    }
    store.create(LONG, "Long", body.toString());
    StringBuilder headings = new StringBuilder();
    for (int i = 0; i < SECTIONS; i++) {
      headings.append("## Section ").append(i).append(" with a heading long enough to weigh on the outline\n\nText ").append(i).append(".\n\n");
    }
    store.create(HEADINGS, "Headings", headings.toString());
    store.create(MARKUP, "Markup",
        "# Tools\n\n### `gram_recall` and friends\n\nFirst.\n\n### **Bold** _move_\n\nSecond.\n\n"
            + "### snake_case_name\n\nThird.\n\n### [Linked](https://example.org) heading\n\nFourth.\n\n"
            + "## gram_recall and friends\n\nA later heading with the same plain text.\n");
  }

  @Test
  void getOutlineShortensLabelsBeforeLeavingRowsOutAndSaysHowToReadTheRest() {
    JsonObject a = ok("gram_get", "{'path':'" + LONG + "','entity':'doc','outline':true}");
    JsonArray rows = a.getJsonArray("outline");
    int omitted = a.getInteger("omitted", 0);
    assertThat(rows.size() + omitted).isEqualTo(PARAGRAPHS);
    // Today's rows with full labels fit about 130; shorter labels fit every block.
    assertThat(rows.size()).isEqualTo(PARAGRAPHS);
    assertThat(a.containsKey("rest")).isFalse();
  }

  @Test
  void readOutlinePagesWithACursorAndReturnsEverySectionOnce() {
    List<String> headings = new ArrayList<>();
    JsonObject args = json("{'path':'" + HEADINGS + "'}");
    int pages = 0;
    while (true) {
      JsonObject a = ok("gram_read", args);
      pages++;
      assertThat(a.containsKey("omitted")).isFalse();
      for (Object o : a.getJsonArray("outline")) {
        headings.add(((JsonArray) o).getString(1));
      }
      String more = a.getString("more");
      if (more == null) {
        break;
      }
      args = json("{'path':'" + HEADINGS + "'}").put("cursor", more);
    }
    assertThat(pages).isGreaterThan(1);
    assertThat(headings).hasSize(SECTIONS);
    for (int i = 0; i < SECTIONS; i++) {
      assertThat(headings.get(i)).startsWith("Section " + i + " ");
    }
  }

  @Test
  void aSectionIsFoundByItsHeadingAsAPersonReadsIt() {
    assertThat(section("gram_recall and friends")).contains("First.");
    assertThat(section("`gram_recall` and friends")).contains("First.");
    assertThat(section("Bold move")).contains("Second.");
    assertThat(section("snake_case_name")).contains("Third.");
    assertThat(section("linked HEADING")).contains("Fourth.");
  }

  @Test
  void whenSeveralHeadingsMatchTheFirstInDocumentOrderWins() {
    // "gram_recall and friends" is the plain text of the ### heading and the source of the ## one.
    assertThat(section("gram_recall and friends")).contains("First.").doesNotContain("A later heading");
  }

  private String section(String name) {
    return ok("gram_read", json("{'path':'" + MARKUP + "'}").put("section", name)).getString("md");
  }
}
