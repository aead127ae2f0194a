package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.await;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.Creation;
import dev.gram.format.EffectiveState;
import dev.gram.format.GramDocument;
import io.vertx.core.json.JsonArray;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state as of an effective time, field by field (docs/gram-format.md §11), on a real vault:
 * the example of the rule's own documentation.
 */
class EffectiveStateTest {
  @TempDir Path dir;

  @Test
  void factsEffectiveAfterTheTimeNeverShowUpHoweverEarlyTheyWereRecorded() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      VaultPath vp = t.vault.paths().writableDocument("p/x.gram");
      Creation.Result r = Creation.build(Creation.newDocumentId(), "X", "", id -> false);
      String hash =
          await(t.vault.submit(new WriteCommand.Create(vp, r.state(), "a", "2026-01-01", r.created(), r.diagnostics())))
              .hash();
      hash = patch(t, vp, 0, hash, "r1", "2026-01-10", ops(add("task", "x", "Ship it"), set("x", "s", "active")));
      hash = patch(t, vp, 1, hash, "r2", "2026-06-01", ops(set("x", "s", "completed")));
      hash = patch(t, vp, 2, hash, "r3", null, ops(set("x", "p", "high")));
      patch(t, vp, 3, hash, "r4", "2026-03-01", ops(add("task", "t2", "Second")));
      DocSnapshot s = t.read("p/x.gram");

      GramDocument march = EffectiveState.at(s.history(), Instant.parse("2026-03-01T23:59:59.999Z"), s.rev());
      assertThat(march.record("x").first("s")).isEqualTo("active");
      assertThat(march.record("x").first("p")).as("rev 3 is effective when recorded, after March").isNull();
      assertThat(march.record("t2")).as("rev 4, recorded last, says t2 existed since March 1").isNotNull();
      assertThat(march.owner().first("t")).isEqualTo("X");

      GramDocument july = EffectiveState.at(s.history(), Instant.parse("2026-07-01T00:00:00Z"), s.rev());
      assertThat(july.record("x").first("s")).isEqualTo("completed");
      assertThat(july.record("x").first("p")).isNull();

      // As recorded up to revision 2: rev 4 had not been written, so t2 is not known yet.
      GramDocument julyAsOfRev2 = EffectiveState.at(s.history(), Instant.parse("2026-07-01T00:00:00Z"), 2);
      assertThat(julyAsOfRev2.record("t2")).isNull();
      assertThat(julyAsOfRev2.record("x").first("s")).isEqualTo("completed");

      GramDocument now = EffectiveState.at(s.history(), Instant.now().plusSeconds(60), s.rev());
      assertThat(now).isEqualTo(s.state());

      assertThat(EffectiveState.at(s.history(), Instant.parse("2025-12-31T00:00:00Z"), s.rev())).isNull();
    }
  }

  @Test
  void aDeletionEffectiveLaterLeavesTheRecordInThePast() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      VaultPath vp = t.vault.paths().writableDocument("p/y.gram");
      Creation.Result r = Creation.build(Creation.newDocumentId(), "Y", "", id -> false);
      String hash =
          await(t.vault.submit(new WriteCommand.Create(vp, r.state(), "a", "2026-01-01", r.created(), r.diagnostics())))
              .hash();
      hash = patch(t, vp, 0, hash, "d1", "2026-02-01", ops(add("decision", "d", "Use Lucene")));
      patch(t, vp, 1, hash, "d2", "2026-05-01",
          ops(new io.vertx.core.json.JsonObject().put("op", "del").put("entity", "d")));
      DocSnapshot s = t.read("p/y.gram");
      assertThat(EffectiveState.at(s.history(), Instant.parse("2026-04-01T00:00:00Z"), s.rev()).record("d")).isNotNull();
      assertThat(EffectiveState.at(s.history(), Instant.parse("2026-06-01T00:00:00Z"), s.rev()).record("d")).isNull();
    }
  }

  private static String patch(TestVault t, VaultPath vp, int base, String hash, String req, String eff, JsonArray o) {
    String digest = RequestDigest.of(vp.path(), base, hash, o, eff);
    return await(t.vault.submit(new WriteCommand.Patch(vp, base, hash, req, digest, o, "a", eff))).hash();
  }
}
