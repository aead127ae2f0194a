package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.async.Foreground;
import dev.gram.edit.PatchOps;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up scan gives way to the agents' calls but never to the point of holding them up: a
 * write waits for the scan, and while that write is in flight part of the scan goes on, so the
 * write is answered, and every document is loaded.
 */
class ScanGivesWayTest {
  @TempDir Path dir;

  @Test
  void aWriteWaitingForTheScanIsAnsweredWhileItsCallIsInFlight() {
    CommitReceipt first;
    try (TestVault t = TestVault.open(dir)) {
      first = t.create("p/doc-0.gram", "Doc 0", "");
      for (int i = 1; i < 60; i++) {
        t.create("p/doc-" + i + ".gram", "Doc " + i, "# Notes\n\nDocument number " + i + ".");
      }
    }
    Foreground agents = new Foreground();
    Vault vault = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 4);
    vault.yieldScanTo(agents, 1);
    try {
      // The write's call is in flight from before the scan starts to its answer.
      agents.started();
      vault.start();
      VaultPath vp = vault.paths().writableDocument("p/doc-0.gram");
      JsonArray ops = new JsonArray().add(new JsonObject().put("op", "set").put("entity", "doc").put("key", "status")
          .put("value", "written during the scan"));
      CommitReceipt r = TestVault.await(vault.submit(new WriteCommand.Patch(vp, 0, first.hash(), "during-scan",
          RequestDigest.of(vp.path(), 0, first.hash(), ops, null), ops, "test-agent", null)));
      assertThat(r.rev()).isEqualTo(1);
      assertThat(vault.scanComplete()).isTrue();
      assertThat(vault.documents()).hasSize(60);
      assertThat(agents.inFlight()).isEqualTo(1);
      agents.ended();
    } finally {
      TestVault.await(vault.close());
    }
  }
}
