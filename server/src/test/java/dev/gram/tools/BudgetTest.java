package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
  void pagingThroughABigSectionAndABigListingReadsEverything() {
    String p = vault.document(1, 2).path();
    int total = 0;
    JsonObject page = ok("gram_list", "{'select':{'type':'task,event'},'limit':100}");
    total += page.getJsonArray("records").size();
    while (page.containsKey("more")) {
      page = ok("gram_list", new JsonObject().put("select", json("{'type':'task,event'}")).put("limit", 100).put("cursor", page.getString("more")));
      total += page.getJsonArray("records").size();
    }
    long expected = server.services().vault().documents().stream()
        .flatMap(s -> s.state().records().stream())
        .filter(e -> e.type().typeName().equals("task") || e.type().typeName().equals("event")).count();
    assertThat(total).isEqualTo(expected);
    page = ok("gram_read", "{'path':'" + p + "','section':'Plan'}");
    int pages = 1;
    while (page.containsKey("more")) {
      page = ok("gram_read", new JsonObject().put("path", p).put("cursor", page.getString("more")));
      pages++;
    }
    assertThat(pages).isGreaterThanOrEqualTo(1);
  }
}
