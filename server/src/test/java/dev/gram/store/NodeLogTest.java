package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.format.Revision;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logs of cluster nodes on one vault: each node's own folder and lock, the vault-level lock
 * shared among nodes and closed to a single process, a dead node's log claimed and retired, and a
 * node's log from its last run set aside at start for the cluster to take over.
 */
class NodeLogTest {
  @TempDir Path dir;

  @Test
  void nodesKeepTheirOwnLogsAndKeepASingleProcessOut() throws Exception {
    try (TestVault n1 = TestVault.openNode(dir, "n1")) {
      assertThat(dir.resolve(".gram-wal/nodes/n1/LOCK")).exists();
      assertThatThrownBy(() -> WriteAheadLog.open(dir)).isInstanceOf(VaultInUseException.class);
      assertThat(OrphanLog.claim(dir.resolve(".gram-wal/nodes/n1"))).as("a running node's log").isNull();
      assertThat(OrphanLog.nodeLogs(dir, "n2")).containsExactly(dir.resolve(".gram-wal/nodes/n1"));
      assertThat(OrphanLog.nodeLogs(dir, "n1")).isEmpty();
    }
  }

  @Test
  void aStoppedNodesLogIsClaimedReadAndRetired() throws Exception {
    Path doc;
    try (TestVault n1 = TestVault.openNode(dir, "n1")) {
      CommitReceipt c = n1.create("p/a.gram", "A", new io.vertx.core.json.JsonObject());
      CommitReceipt p1 = n1.patch("p/a.gram", c.rev(), c.hash(), "r1", ops(add("task", "t1", "One")));
      n1.patch("p/a.gram", p1.rev(), p1.hash(), "r2", ops(set("t1", "x", "done")));
      n1.vault.abandon(); // killed: revisions 1 and 2 are only in the log
      doc = dir.resolve("p/a.gram");
    }
    assertThat(Files.readString(doc)).doesNotContain("r2");
    OrphanLog orphan = OrphanLog.claim(dir.resolve(".gram-wal/nodes/n1"));
    assertThat(orphan).isNotNull();
    Map<String, List<Revision>> revs = orphan.revisionsByDocument();
    assertThat(revs.get("p/a.gram")).extracting(Revision::requestId).containsExactly("r1", "r2");
    assertThat(orphan.damaged()).isEmpty();
    orphan.retire();
    assertThat(dir.resolve(".gram-wal/nodes/n1")).doesNotExist();
  }

  @Test
  void aRestartedNodeSetsItsOldLogAsideForTheCluster() throws Exception {
    try (TestVault n1 = TestVault.openNode(dir, "n1")) {
      CommitReceipt c = n1.create("p/a.gram", "A", new io.vertx.core.json.JsonObject());
      n1.patch("p/a.gram", c.rev(), c.hash(), "r1", ops(add("task", "t1", "One")));
      n1.vault.abandon();
    }
    try (TestVault again = TestVault.openNode(dir, "n1")) {
      // Not replayed into its own copy: the document may have another owner now.
      assertThat(again.read("p/a.gram").rev()).isZero();
      List<Path> others = OrphanLog.nodeLogs(dir, "n1");
      assertThat(others).hasSize(1);
      assertThat(others.get(0).getFileName().toString()).startsWith("n1~");
      OrphanLog orphan = OrphanLog.claim(others.get(0));
      assertThat(orphan.revisionsByDocument().get("p/a.gram")).extracting(Revision::requestId).containsExactly("r1");
      orphan.close();
    }
  }
}
