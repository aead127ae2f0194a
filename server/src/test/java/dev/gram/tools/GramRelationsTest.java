package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ToolResult;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_relations, clause by clause, with links and REL edges across three documents. */
class GramRelationsTest extends ReadingTest {
  static final String A = "rel/a.gram";
  static final String B = "rel/b.gram";
  static final String C = "rel/c.gram";

  static JsonObject relation(String id, String from, String rel, String to) {
    return new JsonObject().put("type", "relation").put("id", id)
        .put("fields", new JsonObject().put("from", new JsonArray().add(from)).put("rel", new JsonArray().add(rel)).put("to", new JsonArray().add(to)));
  }

  @BeforeAll
  void fixture() {
    store.create(A, "A", new JsonObject().put("records", new JsonArray()
        .add(record("task", "a1", "A1", "->depends", "a2", "->related", "d_b/b1"))
        .add(record("task", "a2", "A2", "->depends", "a3"))
        .add(record("task", "a3", "A3", "->depends", "a1"))
        .add(record("evidence", "a4", "A4", "->supports", "a1"))
        .add(relation("ra", "a2", "blocks", "d_c/c1"))), "test-agent", null, "d_a");
    store.create(B, "B", new JsonObject().put("records", new JsonArray()
        .add(record("context", "b1", "B1", "->depends", "d_c/c1"))), "test-agent", null, "d_b");
    store.create(C, "C", new JsonObject().put("records", new JsonArray()
        .add(record("context", "c1", "C1", "->depends", "d_a/a1"))
        .add(record("task", "c2", "C2", "->enables", "d_a/a1"))), "test-agent", null, "d_c");
    store.create("other/d.gram", "D", new JsonObject().put("records", new JsonArray()
        .add(record("task", "d1", "D1", "->related", "d_a/a1"))), "test-agent", null, "d_d");
  }

  JsonObject relations(String args) {
    return ok("gram_relations", json(args));
  }

  static List<String> edges(JsonObject a) {
    List<String> out = new ArrayList<>();
    for (Object o : a.getJsonArray("edges")) {
      JsonArray e = (JsonArray) o;
      assertThat(e).hasSize(3);
      out.add(e.getString(0) + " " + e.getString(1) + " " + e.getString(2));
    }
    return out;
  }

  @Test
  void depthOneOutIsTheEntitysOwnLinksAsFromPredicateTo() {
    JsonObject a = relations("{'from':{'path':'" + A + "','entity':'a1'}}");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("docs", "edges");
    assertThat(edges(a)).containsExactly("a1 depends a2", "a1 related d_b/b1");
    assertThat(a.getJsonArray("docs").stream().map(d -> ((JsonObject) d).getString("path")).toList()).containsExactly(A, B);
    assertThat(a.getJsonArray("docs").getJsonObject(0)).isEqualTo(
        new JsonObject().put("hash", store.read(A).shortHash()).put("path", A).put("rev", 0));
  }

  @Test
  void directionInFindsLinksPointingAtTheEntityFromItsProjectsDocuments() {
    JsonObject a = relations("{'from':{'path':'" + A + "','entity':'a1'},'direction':'in'}");
    assertThat(edges(a)).containsExactly("a3 depends a1", "a4 supports a1", "d_c/c1 depends a1", "d_c/c2 enables a1");
  }

  @Test
  void directionBothFindsBoth() {
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'direction':'both'}")))
        .containsExactly("a1 depends a2", "a1 related d_b/b1", "a3 depends a1", "a4 supports a1", "d_c/c1 depends a1", "d_c/c2 enables a1");
  }

  @Test
  void relEdgesAreEdgesToo() {
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a2'}}"))).containsExactly("a2 depends a3", "a2 blocks d_c/c1");
    assertThat(edges(relations("{'from':{'path':'" + C + "','entity':'c1'},'direction':'in'}")))
        .containsExactly("d_a/a2 blocks c1", "d_b/b1 depends c1");
  }

  @Test
  void depthThreeAcrossDocumentsEndsOnCycles() {
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'depth':3}")))
        .containsExactly(
            "a1 depends a2", "a1 related d_b/b1",
            "a2 depends a3", "a2 blocks d_c/c1", "d_b/b1 depends d_c/c1",
            "a3 depends a1", "d_c/c1 depends a1");
    // From another document the ends in A read as document-id/entity-id and B's own as bare ids.
    assertThat(edges(relations("{'from':{'path':'" + B + "','entity':'b1'},'depth':3}")))
        .containsExactly("b1 depends d_c/c1", "d_c/c1 depends d_a/a1", "d_a/a1 depends d_a/a2", "d_a/a1 related b1");
    JsonObject both = relations("{'from':{'path':'" + B + "','entity':'b1'},'depth':3,'direction':'both'}");
    assertThat(edges(both)).doesNotHaveDuplicates().contains("d_a/a3 depends d_a/a1", "d_c/c2 enables d_a/a1");
    assertThat(both.getJsonArray("docs")).hasSize(3);
  }

  @Test
  void depthIsOneToThree() {
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'depth':2}"))).hasSize(5);
    assertError(call("gram_relations", "{'from':{'path':'" + A + "','entity':'a1'},'depth':4}"), "E_ARGUMENT", null);
    assertError(call("gram_relations", "{'from':{'path':'" + A + "','entity':'a1'},'depth':0}"), "E_ARGUMENT", null);
  }

  @Test
  void predicatesKeepOnlyThoseEdges() {
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'depth':3,'predicates':['depends']}")))
        .containsExactly("a1 depends a2", "a2 depends a3", "a3 depends a1");
    assertError(call("gram_relations", "{'from':{'path':'" + A + "','entity':'a1'},'predicates':['likes']}"), "E_ARGUMENT", null);
  }

  @Test
  void pathsChooseTheDocumentsSearchedByDefaultTheProjects() {
    // other/d.gram links to a1 but lies in another project: not searched by default.
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'direction':'in'}"))).doesNotContain("d_d/d1 related a1");
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'direction':'in','paths':['other']}")))
        .containsExactly("a3 depends a1", "a4 supports a1", "d_d/d1 related a1");
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'direction':'in','paths':['other/d.gram','" + C + "']}")))
        .containsExactly("a3 depends a1", "a4 supports a1", "d_d/d1 related a1", "d_c/c1 depends a1", "d_c/c2 enables a1");
    // An edge into a document outside the paths is listed but not followed.
    assertThat(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'depth':2,'paths':['" + A + "']}")))
        .containsExactly("a1 depends a2", "a1 related d_b/b1", "a2 depends a3", "a2 blocks d_c/c1");
  }

  @Test
  void limitPagesAndMoreContinues() {
    String args = "{'from':{'path':'" + A + "','entity':'a1'},'depth':3,'limit':3}";
    JsonObject p1 = relations(args);
    assertThat(p1.getJsonArray("edges")).hasSize(3);
    JsonObject p2 = ok("gram_relations", json(args).put("cursor", p1.getString("more")));
    JsonObject p3 = ok("gram_relations", json(args).put("cursor", p2.getString("more")));
    assertThat(p3.containsKey("more")).isFalse();
    List<String> all = new ArrayList<>(edges(p1));
    all.addAll(edges(p2));
    all.addAll(edges(p3));
    assertThat(all).isEqualTo(edges(relations("{'from':{'path':'" + A + "','entity':'a1'},'depth':3}")));
  }

  /** Each refused cursor, checked on its own: one wrong answer does not hide the others. */
  @Test
  void malformedAndStaleCursorsAreRefusedWithTheirOwnCodes() {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    String args = "{'from':{'path':'" + A + "','entity':'a1'},'depth':3,'limit':2}";
    String more = relations(args).getString("more");
    assertError(softly, call("gram_relations", json(args).put("cursor", malformed(more))), "E_CURSOR", "Invalid relations cursor");
    assertError(softly, call("gram_relations", json(args).put("depth", 2).put("cursor", more)), "STALE_CURSOR",
        "The cursor belongs to another request; ask again without cursor");
    store.patch(C, ops(set("c2", "x", "open")));
    assertError(softly, call("gram_relations", json(args).put("cursor", more)), "STALE_CURSOR",
        "The relations changed since this cursor; ask again without cursor");
    softly.assertAll();
  }

  /** Each refused argument, checked on its own. */
  @Test
  void unknownEntitiesBadDirectionsAndAbsolutePathsAreRefused() {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    assertError(softly, call("gram_relations", "{'from':{'path':'" + A + "','entity':'zz'}}"), "E_ARGUMENT", "No entity zz in " + A);
    assertError(softly, call("gram_relations", "{'from':{'path':'" + A + "','entity':'a1'},'direction':'up'}"), "E_ARGUMENT", null);
    assertError(softly, call("gram_relations", "{'from':{'path':'/abs.gram','entity':'a1'}}"), "E_PATH", "Absolute paths are outside the approved folder");
    softly.assertAll();
  }

  @Test
  void pathsNamingTooManyDocumentsIsETooManyDocuments() {
    JsonArray paths = new JsonArray();
    for (int i = 0; i < 201; i++) {
      paths.add("many/doc-" + i + ".gram");
    }
    ToolResult r = call("gram_relations", new JsonObject().put("from", json("{'path':'" + A + "','entity':'a1'}")).put("paths", paths));
    assertError(r, "E_TOO_MANY_DOCUMENTS", null);
    assertThat(r.message()).startsWith("gram_relations reads at most 200 documents in one call; this request names 20");
  }

  @Test
  void aProjectLargerThanTheLimitIsETooManyDocuments() {
    VaultGenerator.Result g = VaultGenerator.generate(server.services().vault(),
        new VaultGenerator.Spec(3).folder("big").projects(1).documentsPerProject(201).recordsPerDocument(2).revisionsPerDocument(1).relationShare(0));
    String path = g.document(0, 0).path();
    ToolResult r = call("gram_relations", "{'from':{'path':'" + path + "','entity':'hub'}}");
    assertError(r, "E_TOO_MANY_DOCUMENTS",
        "gram_relations reads at most 200 documents in one call; this request names 201; its project is larger: name the documents or folders to search in paths");
    assertThat(edges(relations("{'from':{'path':'" + path + "','entity':'hub'},'paths':['" + path + "']}"))).hasSize(1);
  }
}
