package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.await;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.format.GramDocument;
import dev.gram.format.GramParser;
import dev.gram.format.Revision;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VaultTest {
  @TempDir Path dir;

  @Test
  void createWritesRevisionZeroDurablyAndReadsBack() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt r =
          t.create("proj/doc.gram", "Lunar migration decision",
              new JsonObject().put("text", "# Fixture\n\nSome text.")
                  .put("records", new JsonArray().add(new JsonObject().put("type", "decision").put("id", "d1")
                      .put("fields", new JsonObject().put("t", new JsonArray().add("Lunar migration decision"))))));
      assertThat(r.rev()).isZero();
      assertThat(r.hash()).hasSize(16);
      assertThat(r.created()).containsExactly("d1");
      Path file = dir.resolve("proj/doc.gram");
      String text = Files.readString(file);
      assertThat(text).startsWith("@gram 2\ndoc d_");
      assertThat(text).contains("\nDEC d1\nt Lunar migration decision\n");
      assertThat(text).contains("\n@history 0 ");
      DocSnapshot s = t.read("proj/doc.gram");
      assertThat(s.rev()).isZero();
      assertThat(s.shortHash()).isEqualTo(r.hash());
      assertThat(s.state().record("d1").title()).isEqualTo("Lunar migration decision");
    }
  }

  @Test
  void createAtAnExistingPathIsStaleAndLeavesTheFileAlone() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      t.create("p/a.gram", "A", "body");
      byte[] before = Files.readAllBytes(dir.resolve("p/a.gram"));
      assertThatThrownBy(() -> t.create("p/a.gram", "A", "body"))
          .isInstanceOfSatisfying(StaleRevisionException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STALE_REVISION);
            assertThat(e.getMessage()).isEqualTo("Create target already exists");
            // The store says what it found; the tools shape it for the client.
            assertThat(e.current().rev()).isZero();
            assertThat(e.baseRevision()).isNull();
            assertThat(e.details()).isNull();
          });
      assertThat(Files.readAllBytes(dir.resolve("p/a.gram"))).isEqualTo(before);
    }
  }

  @Test
  void patchCommitsOnlyAgainstTheCurrentRevisionAndHash() {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      CommitReceipt p1 = t.patch("p/a.gram", 0, c.hash(), "r1", ops(add("task", "t1", "First")));
      assertThat(p1.rev()).isEqualTo(1);
      assertThat(p1.created()).containsExactly("t1");

      GramException stale = t.patchFails("p/a.gram", 0, c.hash(), "r2", ops(add("task", "t2", "Second")));
      assertThat(stale.code()).isEqualTo(ErrorCode.STALE_REVISION);
      assertThat(stale.getMessage()).isEqualTo("Accepted revision or hash changed");
      assertThat(stale).isInstanceOfSatisfying(StaleRevisionException.class, e -> {
        assertThat(e.current().rev()).isEqualTo(1);
        assertThat(e.current().shortHash()).isEqualTo(p1.hash());
        assertThat(e.current().revisions().get(1).by()).isEqualTo("test-agent");
        assertThat(e.baseRevision()).isZero();
      });

      GramException wrongHash = t.patchFails("p/a.gram", 1, "0000000000000000", "r3", ops(add("task", "t3", "Third")));
      assertThat(wrongHash.code()).isEqualTo(ErrorCode.STALE_REVISION);
      assertThat(t.read("p/a.gram").rev()).isEqualTo(1);
    }
  }

  @Test
  void sameRequestIdAndIntentReplaysTheOriginalReceiptEvenAfterRestart() {
    CommitReceipt first;
    CommitReceipt c;
    JsonArray theOps = ops(add("task", "t1", "First"));
    try (TestVault t = TestVault.open(dir)) {
      c = t.create("p/a.gram", "A", "");
      first = t.patch("p/a.gram", 0, c.hash(), "once", theOps);
      // Another write moves the document on; the replay still answers revision 1.
      t.patch("p/a.gram", 1, first.hash(), "later", ops(set("t1", "d", "more")));
      CommitReceipt again = t.patch("p/a.gram", 0, c.hash(), "once", theOps);
      assertThat(again.rev()).isEqualTo(1);
      assertThat(again.hash()).isEqualTo(first.hash());
      assertThat(again.created()).containsExactly("t1");
      assertThat(again.replayed()).isTrue();
      assertThat(t.read("p/a.gram").rev()).isEqualTo(2);
    }
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt afterRestart = t.patch("p/a.gram", 0, c.hash(), "once", theOps);
      assertThat(afterRestart.rev()).isEqualTo(1);
      assertThat(afterRestart.hash()).isEqualTo(first.hash());
      assertThat(t.read("p/a.gram").rev()).isEqualTo(2);
    }
  }

  @Test
  void sameRequestIdWithAnotherIntentIsReuseAcrossDocumentsToo() {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt a = t.create("p/a.gram", "A", "");
      CommitReceipt b = t.create("p/b.gram", "B", "");
      CommitReceipt p = t.patch("p/a.gram", 0, a.hash(), "id-1", ops(set("doc", "d", "A")));
      GramException changed = t.patchFails("p/a.gram", 0, a.hash(), "id-1", ops(set("doc", "d", "B")));
      assertThat(changed.code()).isEqualTo(ErrorCode.E_REQUEST_REUSE);
      assertThat(changed.getMessage()).isEqualTo("request_id belongs to another intent");
      assertThat(changed).isInstanceOfSatisfying(RequestReuseException.class, e -> {
        assertThat(e.usedPath()).isEqualTo("p/a.gram");
        assertThat(e.usedRevision()).isEqualTo(1);
      });
      GramException elsewhere = t.patchFails("p/b.gram", 0, b.hash(), "id-1", ops(set("doc", "d", "A")));
      assertThat(elsewhere.code()).isEqualTo(ErrorCode.E_REQUEST_REUSE);
      // A -> B -> A: back to the first content, but from another base: another intent.
      CommitReceipt toB = t.patch("p/a.gram", 1, p.hash(), "id-2", ops(set("doc", "d", "B")));
      t.patch("p/a.gram", 2, toB.hash(), "id-3", ops(set("doc", "d", "A")));
      GramException reversal = t.patchFails("p/a.gram", 3, t.read("p/a.gram").shortHash(), "id-1", ops(set("doc", "d", "A")));
      assertThat(reversal.code()).isEqualTo(ErrorCode.E_REQUEST_REUSE);
    }
  }

  @Test
  void failedPatchWritesNothingAndFreesItsRequestId() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      byte[] before = Files.readAllBytes(dir.resolve("p/a.gram"));
      GramException bad =
          t.patchFails("p/a.gram", 0, c.hash(), "multi",
              ops(add("task", "t1", "Fine"), set("t1", "d", "fine"), new JsonObject().put("op", "del").put("entity", "nope")));
      assertThat(bad.code()).isEqualTo(ErrorCode.E_ARGUMENT);
      assertThat(Files.readAllBytes(dir.resolve("p/a.gram"))).isEqualTo(before);
      assertThat(t.read("p/a.gram").rev()).isZero();
      // The id was never committed: it can carry a (different) intent now.
      assertThat(t.patch("p/a.gram", 0, c.hash(), "multi", ops(add("task", "t1", "Fine"))).rev()).isEqualTo(1);
    }
  }

  @Test
  void pathsAreRejectedWithTheContractMessages() {
    try (TestVault t = TestVault.open(dir, new VaultPath.MountPoint("ro", dir.resolve("ro-root"), false),
        new VaultPath.MountPoint("rw", dir.resolve("rw-root"), true))) {
      PathResolver p = t.vault.paths();
      assertRejected(() -> p.resolve("/etc/passwd.gram"), ErrorCode.E_PATH, "Absolute paths are outside the approved folder");
      assertRejected(() -> p.resolve("C:/x.gram"), ErrorCode.E_PATH, "Absolute paths are outside the approved folder");
      assertRejected(() -> p.resolve("proj/../../x.gram"), ErrorCode.E_PATH, "Path is outside the approved folders");
      assertRejected(() -> p.resolve("proj/.hidden/x.gram"), ErrorCode.E_PATH, "Path is outside an approved folder or hidden");
      assertRejected(() -> p.resolve("proj/a\u0000.gram"), ErrorCode.E_PATH, "Path is outside an approved folder or hidden");
      assertRejected(() -> p.resolve("proj/a\u0007.gram"), ErrorCode.E_PATH, "Path is outside an approved folder or hidden");
      assertRejected(() -> p.resolve("proj\\x.gram"), ErrorCode.E_PATH, "Path is outside an approved folder or hidden");
      assertRejected(() -> p.resolve("@mounts/nope/x.gram"), ErrorCode.E_PATH, "Path does not start with a mounted collection");
      assertRejected(() -> p.resolve("@other/x.gram"), ErrorCode.E_PATH, "Path does not start with a mounted collection");
      assertRejected(() -> p.writableDocument("@mounts/ro/proj/x.gram"), ErrorCode.E_READ_ONLY, "This mounted folder is read-only to agents");
      assertRejected(() -> p.writableDocument("@mounts/rw/a/b/c.gram"), ErrorCode.E_PATH, "Vault mounts support writes only to top-level documents");
      assertThat(p.writableDocument("@mounts/rw/proj/x.gram").file()).isEqualTo(dir.resolve("rw-root/proj/x.gram"));
    }
  }

  @Test
  void symbolicLinksLeavingTheRootAreRejected() throws Exception {
    Path outside = Files.createTempDirectory("outside");
    Files.createDirectories(dir);
    Files.createSymbolicLink(dir.resolve("escape"), outside);
    try (TestVault t = TestVault.open(dir)) {
      assertRejected(() -> t.create("escape/x.gram", "X", ""), ErrorCode.E_PATH, "Path is outside the approved folders");
      assertThat(outside.resolve("x.gram")).doesNotExist();
    }
  }

  private static void assertRejected(Runnable r, ErrorCode code, String message) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(GramException.class, e -> {
          assertThat(e.code()).isEqualTo(code);
          assertThat(e.getMessage()).isEqualTo(message);
        });
  }

  @Test
  void handWrittenFileLoadsAsRevisionZeroAndTheFirstWriteAddsTheHistory() throws Exception {
    Files.createDirectories(dir.resolve("p"));
    String hand = "@gram 2\ndoc notes\nt Notes\n::rich\n# Notes\n\nHello.\n::end\n\nSRC s1\nt A source\nref https://example.org\n";
    Files.writeString(dir.resolve("p/notes.gram"), hand);
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("p/notes.gram");
      assertThat(s.rev()).isZero();
      assertThat(s.persistedRevisions()).isZero();
      assertThat(Files.readString(dir.resolve("p/notes.gram"))).isEqualTo(hand);
      CommitReceipt r = t.patch("p/notes.gram", 0, s.shortHash(), "first", ops(set("s1", "d", "described")));
      assertThat(r.rev()).isEqualTo(1);
      // The write is durable in the log at once; the file holds it after the next checkpoint.
      assertThat(Files.readString(dir.resolve("p/notes.gram"))).isEqualTo(hand);
      t.vault.checkpointNow();
      String text = Files.readString(dir.resolve("p/notes.gram"));
      assertThat(text).contains("@history 1 ").contains("@rev 0\n").contains("actor import\n").contains("@rev 1\n");
      DocSnapshot after = t.read("p/notes.gram");
      assertThat(after.stateAt(0).record("s1").first("d")).isNull();
      assertThat(after.stateAt(1).record("s1").first("d")).isEqualTo("described");
    }
  }

  @Test
  void anEditByAnotherProgramBecomesARevisionAndARacingWriteIsStale() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "Original body.");
      Path file = dir.resolve("p/a.gram");
      String text = Files.readString(file);
      // Only the readable state at the top is edited, as an editor would; the history stays.
      Files.writeString(file, text.replaceFirst("Original body\\.", "Edited in an editor."));
      GramException e = t.patchFails("p/a.gram", 0, c.hash(), "racing", ops(set("doc", "d", "x")));
      assertThat(e.code()).isEqualTo(ErrorCode.STALE_REVISION);
      assertThat(e.getMessage()).isEqualTo("Artifact changed during transaction");
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.rev()).isEqualTo(1);
      assertThat(s.state().body()).isEqualTo("Edited in an editor.");
      Revision adopted = s.head();
      assertThat(adopted.actor()).isEqualTo("external");
      // Nothing is lost on either side: the agent writes on top of the edit.
      CommitReceipt r = t.patch("p/a.gram", 1, s.shortHash(), "on-top", ops(set("doc", "d", "x")));
      assertThat(r.rev()).isEqualTo(2);
      DocSnapshot after = t.read("p/a.gram");
      assertThat(after.stateAt(0).body()).isEqualTo("Original body.");
      assertThat(after.stateAt(1).body()).isEqualTo("Edited in an editor.");
      assertThat(after.state().owner().first("d")).isEqualTo("x");
    }
  }

  /**
   * An editor's save is a truncate and a write, often in different clock ticks: the watcher can
   * read the edited file, then read it again because its modification time moved. The same bytes
   * read twice are one edit, not an edit and an empty revision after it (the model test met this).
   */
  @Test
  void anEditReadAgainWithANewModificationTimeIsStillOneRevision() throws Exception {
    try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "Original body.");
      t.patch("p/a.gram", 0, c.hash(), "r1", ops(set("doc", "d", "x")));
      t.vault.checkpointNow();
      Path file = dir.resolve("p/a.gram");
      Files.writeString(file, Files.readString(file).replaceFirst("Original body\\.", "Edited in an editor."));
      await(t.vault.refresh(t.vault.paths().document("p/a.gram")));
      DocSnapshot edited = t.read("p/a.gram");
      assertThat(edited.rev()).isEqualTo(2);
      assertThat(edited.head().actor()).isEqualTo("external");

      Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
      await(t.vault.refresh(t.vault.paths().document("p/a.gram")));
      DocSnapshot again = t.read("p/a.gram");
      assertThat(again.rev()).as("the same edit read again").isEqualTo(2);
      assertThat(again.shortHash()).isEqualTo(edited.shortHash());
      assertThat(t.patch("p/a.gram", 2, again.shortHash(), "r2", ops(set("doc", "d", "y"))).rev()).isEqualTo(3);
    }
  }

  @Test
  void aHandEditedHistoryIsAnIntegrityErrorAndTheDocumentRefusesWrites() throws Exception {
    Path file;
    String hash;
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      CommitReceipt p = t.patch("p/a.gram", 0, c.hash(), "r1", ops(add("task", "t1", "One")));
      hash = p.hash();
      file = dir.resolve("p/a.gram");
    }
    String text = Files.readString(file);
    Files.writeString(file, text.replace("by test-agent\n", "by someone-else\n"));
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.failure()).contains("History hash chain broken at revision 0");
      assertThat(s.state().record("t1")).isNotNull();
      byte[] before = Files.readAllBytes(file);
      GramException e = t.patchFails("p/a.gram", 1, hash, "r2", ops(set("t1", "d", "x")));
      assertThat(e.code()).isEqualTo(ErrorCode.E_INTEGRITY);
      assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }
  }

  @Test
  void aTruncatedHistoryIsAnIntegrityError() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      t.patch("p/a.gram", 0, c.hash(), "r1", ops(add("task", "t1", "One")));
    }
    Path file = dir.resolve("p/a.gram");
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.indexOf("@rev 1\n")));
    try (TestVault t = TestVault.open(dir)) {
      assertThat(t.read("p/a.gram").failure()).contains("truncated");
    }
  }

  @Test
  void pastStatesByRevisionRecordedTimeAndEffectiveTime() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      int n = 70; // crosses two checkpoints
      String hash = c.hash();
      for (int i = 1; i <= n; i++) {
        VaultPath vp = t.vault.paths().writableDocument("p/a.gram");
        JsonArray o = ops(set("doc", "d", "v" + i));
        String eff = i == 5 ? "2020-01-01" : null;
        String digest = RequestDigest.of(vp.path(), i - 1, hash, o, eff);
        hash = await(t.vault.submit(new WriteCommand.Patch(vp, i - 1, hash, "r" + i, digest, o, "a", eff))).hash();
      }
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.rev()).isEqualTo(n);
      for (int i = 1; i <= n; i++) {
        assertThat(s.stateAt(i).owner().first("d")).isEqualTo("v" + i);
      }
      assertThat(s.stateAt(0).owner().first("d")).isNull();
      Revision r10 = s.revisions().get(10);
      assertThat(s.revisionRecordedAt(r10.recordedAt())).isGreaterThanOrEqualTo(10);
      assertThat(s.revisionRecordedAt(Instant.parse("2000-01-01T00:00:00Z"))).isEqualTo(-1);
      // Revision 5 says its facts happened in 2020: as of 2021 it is the only one in effect.
      assertThat(dev.gram.format.EffectiveState.at(s.history(), Instant.parse("2021-01-01T00:00:00Z"), s.rev()).owner().first("d"))
          .isEqualTo("v5");
      // A new vault (a restart) rebuilds the same states from the file.
      GramDocument atFifty = s.stateAt(50);
      try (TestVault again = TestVault.open(dir.resolveSibling(dir.getFileName() + "-copy"))) {
        // separate empty vault: nothing to compare
      }
      t.vault.checkpointNow();
      assertThat(GramParser.parseOrThrow(Files.readString(dir.resolve("p/a.gram"))).history()).hasSize(n + 1);
      assertThat(atFifty.owner().first("d")).isEqualTo("v50");
    }
  }

  @Test
  void commitUnknownIsSettledByRetryingWithTheSameRequestId() throws Exception {
    dev.gram.testing.disk.SimulatedDisk disk = dev.gram.testing.disk.SimulatedDisk.over(dir);
    try (TestVault t = TestVault.open(disk.root())) {
      t.create("p/a.gram", "A", "");
      // A first commit opens the log's segment; the fsync of the next commit's record fails.
      CommitReceipt c = t.patch("p/a.gram", 0, t.read("p/a.gram").shortHash(), "first", ops(add("task", "t0", "Zero")));
      disk.failFsync(name -> name.endsWith(".wal"), 1);
      JsonArray o = ops(add("task", "t1", "One"));
      GramException e = t.patchFails("p/a.gram", 1, c.hash(), "uncertain", o);
      assertThat(e.code()).isEqualTo(ErrorCode.COMMIT_UNKNOWN);
      assertThat(e.getMessage()).startsWith("Replacement published but durability is uncertain: ");
      CommitReceipt settled = t.patch("p/a.gram", 1, c.hash(), "uncertain", o);
      assertThat(settled.rev()).isEqualTo(2);
      assertThat(settled.created()).containsExactly("t1");
      assertThat(t.read("p/a.gram").rev()).isEqualTo(2);
    }
  }

  @Test
  void documentsThatOtherProgramsCreateOrEditAreNoticedWithoutAWrite() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "Original.");
      // A new project folder with a document in it, as a git checkout would make it.
      Path newProject = dir.resolve("checked-out");
      Files.createDirectories(newProject);
      Files.writeString(newProject.resolve("b.gram"), "@gram 2\ndoc hand-b\nt B\n");
      // An edit of the readable state of an existing document, as an editor would make it.
      Path a = dir.resolve("p/a.gram");
      Files.writeString(a, Files.readString(a).replaceFirst("Original\\.", "Edited."));
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (System.nanoTime() < deadline
          && (t.vault.peek("checked-out/b.gram") == null || t.vault.peek("p/a.gram").rev() == 0)) {
        Thread.sleep(20);
      }
      assertThat(t.vault.peek("checked-out/b.gram")).as("the new document").isNotNull();
      assertThat(t.vault.peek("checked-out/b.gram").state().title()).isEqualTo("B");
      DocSnapshot edited = t.vault.peek("p/a.gram");
      assertThat(edited.rev()).isEqualTo(1);
      assertThat(edited.state().body()).isEqualTo("Edited.");
      assertThat(edited.shortHash()).isNotEqualTo(c.hash());
    }
  }

  @Test
  void halfASurrogatePairIsRefusedBecauseItHasNoUtf8Form() {
    try (TestVault t = TestVault.open(dir)) {
      CommitReceipt c = t.create("p/a.gram", "A", "");
      GramException e = t.patchFails("p/a.gram", 0, c.hash(), "s", ops(set("doc", "d", "broken " + (char) 0xD800 + " text")));
      assertThat(e.code()).isEqualTo(ErrorCode.E_ARGUMENT);
      assertThat(e.getMessage()).contains("unpaired UTF-16 surrogate");
      assertThat(t.read("p/a.gram").rev()).isZero();
    }
  }

  @Test
  void leftoverTemporaryFilesAreRemovedAtStartAndNeverRead() throws Exception {
    Files.createDirectories(dir.resolve("p"));
    Path tmp = dir.resolve("p/.a.gram.tmp-1234");
    Files.writeString(tmp, "@gram 2\ndoc junk\n", StandardCharsets.UTF_8);
    try (TestVault t = TestVault.open(dir)) {
      assertThat(tmp).doesNotExist();
      assertThat(t.vault.documents()).isEmpty();
    }
  }
}
