package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.index.IndexStatus.Stats;
import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index against the vault over time: a rebuild in the background while the server answers,
 * a restart that keeps the index and re-indexes only what changed, edits by other programs, and
 * documents that cannot be parsed.
 *
 * <p>Counts are read from {@link IndexStatus}, the interface gram_capabilities reports.
 */
class IndexLifecycleTest {
  @TempDir Path dir;

  static String doc(String id, String title, String body, String records) {
    return "@gram 2\ndoc " + id + "\nt " + title + "\n::rich\n" + body + "\n::end\n\n" + records;
  }

  static List<String> ids(JsonObject a) {
    List<String> out = new ArrayList<>();
    for (Object o : a.getJsonArray("hits")) {
      out.add(((JsonArray) o).getString(0));
    }
    return out;
  }

  static JsonObject recall(GramTestServer s, String query, int topK) {
    return s.call("gram_recall", new JsonObject().put("query", query).put("mode", "keyword").put("top_k", topK)).ok();
  }

  static Stats stats(GramTestServer s) {
    return s.services().context().index().stats();
  }

  @Test
  void aFreshIndexIsBuiltInTheBackgroundWhileRecallAnswersAndSaysItIsPartial() {
    Path vault = dir.resolve("vault");
    int n = 120;
    for (int i = 0; i < n; i++) {
      Fixtures.write(vault, "fleet/ship" + i + ".gram",
          doc("d_ship" + i, "Ship " + i, "# Log\n\nThe beacon of ship " + i + " is lit.", "TSK beacon" + i + "\nt Check beacon " + i + "\n"));
    }
    System.setProperty("gram.index.rebuildDelayMs", "15");
    GramTestServer s;
    try {
      s = GramTestServer.start(vault, "--no-semantic");
    } finally {
      System.clearProperty("gram.index.rebuildDelayMs");
    }
    try (s) {
      long t0 = System.nanoTime();
      JsonObject early = recall(s, "beacon", 100);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      // Answered at once, with what is indexed so far, and honest about it.
      assertThat(ms).isLessThan(1_000);
      assertThat(early.getBoolean("partial")).isTrue();
      assertThat(early.getInteger("pendingFiles")).isPositive();
      assertThat(ids(early).size()).isLessThan(2 * n);
      Stats during = stats(s);
      assertThat(during.pendingFiles()).isPositive();
      assertThat(during.indexedFiles() + during.pendingFiles()).isEqualTo(n);

      Fixtures.awaitIndexed(s);
      Stats after = stats(s);
      assertThat(after.indexedFiles()).isEqualTo(n);
      assertThat(after.pendingFiles()).isZero();
      assertThat(after.failedFiles()).isZero();
      // Every record and every document is found; nothing said about being partial any more.
      JsonObject all = s.call("gram_recall", new JsonObject().put("query", "beacon").put("mode", "keyword")
          .put("type", "task").put("top_k", 100)).ok();
      JsonObject more = s.call("gram_recall", new JsonObject().put("query", "beacon").put("mode", "keyword")
          .put("type", "task").put("top_k", 100).put("cursor", all.getString("cursor"))).ok();
      assertThat(ids(all).size() + ids(more).size()).isEqualTo(n);
      assertThat(all.containsKey("partial")).isFalse();
    }
  }

  @Test
  void aRestartKeepsTheIndexAndReindexesWhatChangedWhileTheServerWasOff() throws Exception {
    Path vault = dir.resolve("vault");
    Fixtures.write(vault, "p/keep.gram", doc("d_keep", "Keep", "# Keep\n\nUnchanged harpsichord notes.", ""));
    Fixtures.write(vault, "p/edit.gram", doc("d_edit", "Edit", "# Edit\n\nThe old clavichord text.", ""));
    Fixtures.write(vault, "p/gone.gram", doc("d_gone", "Gone", "# Gone\n\nA spinet nobody plays.", ""));
    try (GramTestServer s = GramTestServer.start(vault, "--no-semantic")) {
      Fixtures.awaitIndexed(s);
      assertThat(ids(recall(s, "clavichord", 10))).containsExactly("p/edit.gram#d_edit");
    }
    // While the server is off another program edits one file, deletes one and adds one.
    Fixtures.write(vault, "p/edit.gram", doc("d_edit", "Edit", "# Edit\n\nThe new theorbo text.", ""));
    Files.delete(vault.resolve("p/gone.gram"));
    Fixtures.write(vault, "p/new.gram", doc("d_new", "New", "# New\n\nA fresh celesta.", ""));

    System.setProperty("gram.index.rebuildDelayMs", "300");
    GramTestServer s;
    try {
      s = GramTestServer.start(vault, "--no-semantic");
    } finally {
      System.clearProperty("gram.index.rebuildDelayMs");
    }
    try (s) {
      // The kept document is searchable at once from the index on disk, with nothing to redo.
      assertThat(ids(recall(s, "harpsichord", 10))).containsExactly("p/keep.gram#d_keep");
      Fixtures.awaitIndexed(s);
      assertThat(ids(recall(s, "harpsichord", 10))).containsExactly("p/keep.gram#d_keep");
      assertThat(ids(recall(s, "clavichord", 10))).isEmpty();
      assertThat(ids(recall(s, "theorbo", 10))).containsExactly("p/edit.gram#d_edit");
      assertThat(ids(recall(s, "spinet", 10))).isEmpty();
      assertThat(ids(recall(s, "celesta", 10))).containsExactly("p/new.gram#d_new");
      assertThat(stats(s).indexedFiles()).isEqualTo(3);
    }
  }

  @Test
  void anEditByAnotherProgramWhileRunningIsReindexed() {
    Path vault = dir.resolve("vault");
    Fixtures.write(vault, "p/a.gram", doc("d_a", "A", "# A\n\nA bassoon.", ""));
    try (GramTestServer s = GramTestServer.start(vault, "--no-semantic")) {
      Fixtures.awaitIndexed(s);
      Fixtures.write(vault, "p/a.gram", doc("d_a", "A", "# A\n\nAn oboe now.", ""));
      Fixtures.write(vault, "p/b.gram", doc("d_b", "B", "# B\n\nA piccolo.", ""));
      JsonObject args = new JsonObject().put("query", "oboe piccolo").put("mode", "keyword");
      Fixtures.recallUntil(s, args, a -> ids(a).containsAll(List.of("p/a.gram#d_a", "p/b.gram#d_b")), 10_000);
      assertThat(ids(recall(s, "bassoon", 10))).isEmpty();
    }
  }

  @Test
  void aFileThatCannotBeParsedCountsAsFailedAndNeverStopsTheRest() throws Exception {
    Path vault = dir.resolve("vault");
    Fixtures.write(vault, "p/good1.gram", doc("d_g1", "Good one", "# G\n\nA marimba.", ""));
    Fixtures.write(vault, "p/bad.gram", "this is not a gram file\n::end\n");
    Files.write(vault.resolve("p/worse.gram"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
    Fixtures.write(vault, "p/good2.gram", doc("d_g2", "Good two", "# G\n\nA vibraphone marimba.", ""));
    try (GramTestServer s = GramTestServer.start(vault, "--no-semantic")) {
      Fixtures.awaitIndexed(s);
      Stats st = stats(s);
      assertThat(st.failedFiles()).isEqualTo(2);
      assertThat(st.indexedFiles()).isEqualTo(2);
      assertThat(st.pendingFiles()).isZero();
      assertThat(ids(recall(s, "marimba", 10))).containsExactlyInAnyOrder("p/good1.gram#d_g1", "p/good2.gram#d_g2");
      // Once repaired, it is indexed and no longer failed.
      Fixtures.write(vault, "p/bad.gram", doc("d_bad", "Bad no more", "# B\n\nA repaired marimba.", ""));
      Fixtures.recallUntil(s, new JsonObject().put("query", "repaired").put("mode", "keyword"),
          a -> ids(a).contains("p/bad.gram#d_bad"), 10_000);
      assertThat(stats(s).failedFiles()).isEqualTo(1);
      assertThat(stats(s).indexedFiles()).isEqualTo(3);
    }
  }

  @Test
  void deletingTheIndexFolderLosesNothing() throws Exception {
    Path vault = dir.resolve("vault");
    Fixtures.write(vault, "p/a.gram", doc("d_a", "A", "# A\n\nA glockenspiel.", ""));
    try (GramTestServer s = GramTestServer.start(vault, "--no-semantic")) {
      Fixtures.awaitIndexed(s);
    }
    Path index = vault.resolveSibling("vault-index");
    assertThat(index).isDirectory();
    try (var files = Files.walk(index)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    try (GramTestServer s = GramTestServer.start(vault, "--no-semantic")) {
      Fixtures.awaitIndexed(s);
      assertThat(ids(recall(s, "glockenspiel", 10))).containsExactly("p/a.gram#d_a");
    }
  }
}
