package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ResponseBudget;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every answer fits the 16,384-byte budget, on a generated vault whose documents are each far
 * larger than one answer: wide requests page or cut, they never overflow.
 */
class BudgetTest extends ReadingTest {
  VaultGenerator.Result vault;

  @BeforeAll
  void fixture() {
    vault = VaultGenerator.generate(server.services().vault(),
        new VaultGenerator.Spec(5).projects(2).documentsPerProject(3).recordsPerDocument(400).placedPerDocument(300).revisionsPerDocument(3));
  }

  @Test
  void wideRequestsOfEveryToolFit() {
    String p = vault.document(0, 0).path();
    String p2 = vault.document(0, 1).path();
    // ok() asserts the size of each answer.
    ok("gram_list", "{}");
    ok("gram_list", "{'path':'" + p + "'}");
    ok("gram_list", "{'select':{}}");
    ok("gram_brief", "{'limit':50}");
    ok("gram_read", "{'path':'" + p + "'}");
    ok("gram_read", "{'path':'" + p + "','section':'" + vault.document(0, 0).title() + "'}");
    ok("gram_get", "{'path':'" + p + "','entity':'doc','outline':true}");
    ok("gram_changes", "{'limit':100}");
    ok("gram_range", "{'path':'" + p + "','limit':100}");
    ok("gram_range", "{'path':'" + p + "','query':'lunar migration billing','top_k':100}");
    ok("gram_state", "{'path':'" + p + "','selector':{'revision':2}}");
    ok("gram_state", "{'path':'" + p + "','selector':{'revision':2},'entity':'doc'}");
    ok("gram_relations", "{'from':{'path':'" + p + "','entity':'hub'},'depth':3,'direction':'both','limit':500}");
    JsonArray ids = new JsonArray();
    for (String id : vault.document(0, 1).recordIds().subList(0, 100)) {
      ids.add(new JsonObject().put("path", p2).put("entity", id));
    }
    ok("gram_context", new JsonObject().put("ids", ids));
  }

  @Test
  void pagingThroughABigSectionAndABigListingReadsEverythingExactlyOnce() {
    List<String> listed = new ArrayList<>();
    JsonObject page = ok("gram_list", "{'select':{'type':'task,event'},'limit':100}");
    int listPages = 1;
    listed.addAll(rowIds(page));
    while (page.containsKey("more")) {
      page = ok("gram_list", new JsonObject().put("select", json("{'type':'task,event'}")).put("limit", 100).put("cursor", page.getString("more")));
      listed.addAll(rowIds(page));
      listPages++;
    }
    List<String> expected = server.services().vault().documents().stream()
        .flatMap(s -> s.state().records().stream()
            .filter(e -> e.type().typeName().equals("task") || e.type().typeName().equals("event"))
            .map(e -> s.path() + "#" + e.id()))
        .toList();
    assertThat(listed).as("every record listed exactly once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
    assertThat(listPages).as("pages of at most 100 rows").isGreaterThanOrEqualTo((expected.size() + 99) / 100);

    // The largest section of a document, which no single answer can hold: the pages, in order,
    // make up exactly the text the outline measured.
    String p = vault.document(1, 2).path();
    JsonArray largest = null;
    for (Object o : ok("gram_read", "{'path':'" + p + "'}").getJsonArray("outline")) {
      JsonArray row = (JsonArray) o;
      if (largest == null || row.getInteger(3) > largest.getInteger(3)) {
        largest = row;
      }
    }
    int chars = largest.getInteger(3);
    assertThat(chars).as("the section is larger than one answer").isGreaterThan(ResponseBudget.BYTES);
    StringBuilder read = new StringBuilder();
    page = ok("gram_read", new JsonObject().put("path", p).put("section", largest.getString(1)));
    int pages = 1;
    read.append(page.getString("md"));
    while (page.containsKey("more")) {
      page = ok("gram_read", new JsonObject().put("path", p).put("cursor", page.getString("more")));
      assertThat(page.getString("md")).as("page %d", pages + 1).isNotEmpty();
      read.append(page.getString("md"));
      pages++;
    }
    assertThat(pages).as("pages of a %d-character section", chars).isGreaterThanOrEqualTo(2);
    assertThat(read.length()).as("the pages hold the section once, nothing skipped or repeated").isEqualTo(chars);
    assertThat(read.toString()).startsWith("#");
  }

  /** The {@code path#id} of each record row of a gram_list page. */
  private static List<String> rowIds(JsonObject page) {
    List<String> ids = new ArrayList<>();
    for (Object r : page.getJsonArray("records")) {
      ids.add(((JsonArray) r).getString(0));
    }
    return ids;
  }
}
