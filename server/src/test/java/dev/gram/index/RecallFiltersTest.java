package dev.gram.index;

import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each filter, refilling top_k, paging with cursor; lexical only (semantic off). */
class RecallFiltersTest {
  @TempDir static Path dir;
  static GramTestServer server;

  @BeforeAll
  static void start() {
    Path mount = dir.resolve("shared");
    Fixtures.write(mount, "lab/notes.gram",
        "@gram 2\ndoc d_lab\nt Lab notes\n::rich\n# Lab\n\nThe falcon sensor drifts in the cold.\n::end\n\n"
            + "KNW k-lab\nt Falcon sensor calibration\n");
    server = GramTestServer.start(dir.resolve("vault"), "--no-semantic", "--mount", "lab=" + mount);
    // Many strong falcon matches in alpha, a few weaker ones in beta.
    JsonArray alpha = new JsonArray();
    for (int i = 0; i < 30; i++) {
      alpha.add(record("task", "a" + i, "Falcon falcon launch step " + i, "d", "falcon falcon"));
    }
    Fixtures.create(server, "alpha/plan.gram", "Alpha plan",
        new JsonObject().put("text", "# Falcon\n\nFalcon falcon falcon everywhere.").put("records", alpha));
    Fixtures.create(server, "beta/plan.gram", "Beta plan",
        new JsonObject()
            .put("text", "# Ops\n\nNothing about birds here.\n\n## scoped\n\nA heading named like the s-tag.")
            .put("records", new JsonArray()
                .add(record("risk", "r1", "Falcon supplier may be late", "s", "scoped"))
                .add(record("decision", "d1", "Buy the falcon engines", "s", "scoped", "s", "engines"))
                .add(record("task", "t1", "Falcon paint job", "s", "Scoped"))
                .add(record("event", "e1", "Falcon test flight", "at", "2026-10-12"))));
    Fixtures.awaitIndexed(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static ToolResult call(JsonObject args) {
    return server.call("gram_recall", args.put("mode", args.getString("mode", "keyword")));
  }

  static List<String> ids(JsonObject answer) {
    List<String> out = new ArrayList<>();
    for (Object o : answer.getJsonArray("hits")) {
      out.add(((JsonArray) o).getString(0));
    }
    return out;
  }

  static JsonObject q(String query) {
    return new JsonObject().put("query", query);
  }

  @Test
  void documentsKeepsHitsOfThoseDocumentsAndRefillsTopK() {
    // Without the filter, alpha fills the first page; with it, beta's hits fill it all the same.
    assertThat(ids(call(q("falcon").put("top_k", 3)).ok())).allMatch(id -> id.startsWith("alpha/"));
    List<String> ids = ids(call(q("falcon").put("top_k", 3).put("documents", new JsonArray().add("beta/plan.gram"))).ok());
    assertThat(ids).hasSize(3).allMatch(id -> id.startsWith("beta/plan.gram#"));
  }

  @Test
  void folderKeepsHitsUnderIt() {
    assertThat(ids(call(q("falcon").put("top_k", 5).put("folder", "beta")).ok())).hasSize(4).allMatch(id -> id.startsWith("beta/"));
    // The vault root means the vault without its mounts; a mount key means that mount.
    assertThat(ids(call(q("falcon").put("top_k", 50).put("folder", "")).ok())).noneMatch(id -> id.startsWith("@mounts/"));
    assertThat(ids(call(q("falcon").put("folder", "@mounts/lab")).ok()))
        .containsExactlyInAnyOrder("@mounts/lab/lab/notes.gram#k-lab", "@mounts/lab/lab/notes.gram#d_lab");
    // Without a folder, mounts are searched too.
    assertThat(ids(call(q("calibration")).ok())).containsExactly("@mounts/lab/lab/notes.gram#k-lab");
  }

  @Test
  void typeKeepsRecordsOfThatTypeOrDocuments() {
    List<String> risks = ids(call(q("falcon").put("type", "risk")).ok());
    assertThat(risks).containsExactly("beta/plan.gram#r1");
    assertThat(ids(call(q("falcon").put("type", "RSK")).ok())).containsExactly("beta/plan.gram#r1");
    List<String> docs = ids(call(q("falcon").put("type", "document")).ok());
    assertThat(docs).isNotEmpty().allMatch(id -> id.contains("#d_"));
    ToolResult bad = call(q("falcon").put("type", "bird"));
    assertThat(bad.code()).isEqualTo("E_ARGUMENT");
    assertThat(bad.message()).contains("bird");
  }

  @Test
  void scopeIsExactSTagMembershipOnly() {
    List<String> ids = ids(call(q("falcon").put("scope", "scoped")).ok());
    // Exact and case-sensitive: t1's "Scoped" is another s-tag; the section headed "scoped" is
    // not an s-tag, and neither is a record's type.
    assertThat(ids).containsExactlyInAnyOrder("beta/plan.gram#r1", "beta/plan.gram#d1");
    assertThat(ids(call(q("falcon").put("scope", "engines")).ok())).containsExactly("beta/plan.gram#d1");
    assertThat(ids(call(q("falcon").put("scope", "scope")).ok())).isEmpty();
    assertThat(ids(call(q("falcon").put("scope", "risk")).ok())).isEmpty();
  }

  @Test
  void filtersCombine() {
    List<String> ids = ids(call(q("falcon").put("folder", "beta").put("type", "task").put("scope", "Scoped")).ok());
    assertThat(ids).containsExactly("beta/plan.gram#t1");
  }

  @Test
  void cursorPagesThroughEveryHitOnce() {
    JsonObject args = q("falcon launch").put("top_k", 7).put("documents", new JsonArray().add("alpha/plan.gram"));
    Set<String> seen = new HashSet<>();
    int pages = 0;
    String cursor = null;
    do {
      JsonObject a = call(cursor == null ? args.copy() : args.copy().put("cursor", cursor)).ok();
      List<String> ids = ids(a);
      assertThat(ids).hasSizeLessThanOrEqualTo(7);
      for (String id : ids) {
        assertThat(seen.add(id)).as("seen twice: " + id).isTrue();
      }
      cursor = a.getString("cursor");
      pages++;
    } while (cursor != null && pages < 20);
    // The 30 tasks: each holds both words (the document's own text does not, so keyword mode,
    // which wants every word, leaves it out).
    assertThat(seen).hasSize(30);
    assertThat(pages).isEqualTo(5);
  }

  @Test
  void aCursorBelongsToItsQuery() {
    JsonObject a = call(q("falcon").put("top_k", 2)).ok();
    String cursor = a.getString("cursor");
    assertThat(cursor).isNotNull();
    ToolResult other = call(q("engines").put("top_k", 2).put("cursor", cursor));
    assertThat(other.code()).isEqualTo("STALE_CURSOR");
    ToolResult broken = call(q("falcon").put("top_k", 2).put("cursor", "not-a-cursor"));
    assertThat(broken.code()).isEqualTo("E_CURSOR");
    assertThat(broken.message()).isEqualTo("Invalid recall cursor");
  }

  @Test
  void pathsOutsideTheVaultAreRefused() {
    assertThat(call(q("falcon").put("folder", "/etc")).code()).isEqualTo("E_PATH");
    assertThat(call(q("falcon").put("documents", new JsonArray().add("../x.gram"))).code()).isEqualTo("E_PATH");
    assertThat(call(q("falcon").put("folder", "@mounts/nope")).code()).isEqualTo("E_PATH");
  }

  @Test
  void semanticOffByFlagFallsBackAndSaysWhy() {
    for (String mode : List.of("semantic", "hybrid")) {
      JsonObject a = call(q("falcon engines").put("mode", mode)).ok();
      assertThat(a.getString("mode")).isEqualTo("keyword");
      assertThat(a.getString("fallback")).contains("--no-semantic").contains("keyword");
      assertThat(ids(a)).contains("beta/plan.gram#d1");
      // Lexical answers carry no cosine.
      assertThat(a.getJsonArray("hits").getJsonArray(0).size()).isLessThanOrEqualTo(5);
    }
    JsonObject auto = call(q("which engines should we buy for the falcon").put("mode", "auto")).ok();
    assertThat(auto.getString("mode")).isEqualTo("keyword");
    assertThat(auto.containsKey("fallback")).isFalse();
    // What gram_capabilities reports.
    var sem = server.services().context().index().semantic();
    assertThat(sem.status()).isEqualTo("unavailable");
    assertThat(sem.reason()).contains("--no-semantic");
    assertThat(server.services().context().index().stats().embeddedChunks()).isZero();
  }
}
