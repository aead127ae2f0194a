package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.base.GramException;
import dev.gram.edit.PatchOps;
import dev.gram.format.GramParser;
import dev.gram.testing.disk.SimulatedDisk;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log on real files: what is acknowledged is in the log before the file holds
 * it, survives a stop without checkpoint, replays once however often it is read, and nothing
 * acknowledged is lost to a torn tail, damage, an edit by another program, a failed fsync or a
 * full disk. (Killing a real child JVM is {@link CrashTest}'s job.)
 */
class WriteAheadLogTest {
  @TempDir Path dir;

  private Path wal() {
    return dir.resolve(WriteAheadLog.FOLDER);
  }

  private List<Path> segments() throws IOException {
    return WriteAheadLog.segmentFiles(wal());
  }

  /** Writes n revisions to p/a.gram (one record each) and returns the vault, not closed. */
  private TestVault withRevisions(int n) {
    return withRevisions(dir, n);
  }

  /** As {@link #withRevisions(int)}, on a vault at {@code root} (a simulated disk's, say). */
  private static TestVault withRevisions(Path root, int n) {
    // Checkpoints only when a test asks: a timed one between two steps would change what it tests.
    TestVault t = TestVault.openWithoutTimedCheckpoints(root);
    t.create("p/a.gram", "A", "");
    for (int i = 1; i <= n; i++) {
      DocSnapshot s = t.read("p/a.gram");
      t.patch("p/a.gram", s.rev(), s.shortHash(), "req-" + i, ops(add("task", "t" + i, "Task " + i)));
    }
    return t;
  }

  private static int historySize(Path file) throws IOException {
    return GramParser.parseOrThrow(Files.readString(file)).history().size();
  }

  @Test
  void anAcknowledgedWriteIsInTheLogFirstAndInTheFileAfterTheCheckpoint() throws Exception {
    try (TestVault t = withRevisions(3)) {
      Path file = dir.resolve("p/a.gram");
      assertThat(historySize(file)).as("the file before any checkpoint").isEqualTo(1);
      assertThat(segments()).hasSize(1);
      t.vault.checkpointNow();
      assertThat(historySize(file)).isEqualTo(4);
      t.vault.checkpointNow(); // the second round finds the segment fully checkpointed
      assertThat(segments()).as("a segment whose records are all in files is deleted").isEmpty();
      assertThat(t.vault.metrics().checkpointsOwed()).isZero();
    }
  }

  @Test
  void aCleanStopLeavesFilesThatHoldEverythingAndAnEmptyLog() throws Exception {
    try (TestVault t = withRevisions(5)) {
      assertThat(t.read("p/a.gram").rev()).isEqualTo(5);
    }
    assertThat(historySize(dir.resolve("p/a.gram"))).isEqualTo(6);
    assertThat(segments()).isEmpty();
  }

  @Test
  void revisionsOnlyInTheLogAreReplayedAtStartBeforeTheDocumentAnswers() throws Exception {
    withRevisions(20).vault.abandon();
    assertThat(historySize(dir.resolve("p/a.gram"))).isEqualTo(1);
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.failure()).isNull();
      assertThat(s.rev()).isEqualTo(20);
      assertThat(s.state().record("t20")).isNotNull();
      // The request ids came back with the revisions: a retry replays its receipt.
      CommitReceipt again =
          t.patch("p/a.gram", 6, s.revisions().get(6).shortHash(), "req-7", ops(add("task", "t7", "Task 7")));
      assertThat(again.replayed()).isTrue();
      assertThat(again.rev()).isEqualTo(7);
    }
    assertThat(historySize(dir.resolve("p/a.gram"))).isEqualTo(21);
  }

  @Test
  void replayingTheSameLogTwiceGivesTheSameFile() throws Exception {
    withRevisions(12).vault.abandon();
    Path saved = dir.resolveSibling(dir.getFileName() + "-wal-copy");
    copyTree(wal(), saved);
    try (TestVault t = TestVault.open(dir)) {
      assertThat(t.read("p/a.gram").rev()).isEqualTo(12);
    }
    byte[] once = Files.readAllBytes(dir.resolve("p/a.gram"));
    // The same records again, as if the deletion of the segments had not survived a crash.
    copyTree(saved, wal());
    try (TestVault t = TestVault.open(dir)) {
      assertThat(t.read("p/a.gram").rev()).isEqualTo(12);
      t.assertChainValid("p/a.gram");
    }
    assertThat(Files.readAllBytes(dir.resolve("p/a.gram"))).isEqualTo(once);
  }

  @Test
  void aRecordTornAtTheTailIsDiscardedAndEverythingBeforeItKept() throws Exception {
    withRevisions(5).vault.abandon();
    Path seg = segments().get(segments().size() - 1);
    long size = Files.size(seg);
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size - 7); // the last frame loses its end, as a crash mid-write would leave it
    }
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.failure()).isNull();
      assertThat(s.rev()).isEqualTo(4);
      DocSnapshot now = t.read("p/a.gram");
      t.patch("p/a.gram", now.rev(), now.shortHash(), "after-tear", ops(add("task", "x", "X")));
    }
    assertThat(historySize(dir.resolve("p/a.gram"))).isEqualTo(6);
  }

  @Test
  void damageInTheMiddleOfTheLogClosesThatDocumentWithEIntegrity() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      t.create("p/b.gram", "B", "");
    }
    TestVault t0 = withRevisions(4);
    DocSnapshot b = t0.read("p/b.gram");
    t0.patch("p/b.gram", b.rev(), b.shortHash(), "b-1", ops(add("task", "b1", "B one")));
    t0.vault.abandon();
    // Flip one byte inside the second record of p/a.gram (its payload, past the header line).
    Path seg = segments().get(0);
    byte[] bytes = Files.readAllBytes(seg);
    int second = indexOf(bytes, "@rev 2".getBytes(), 0);
    bytes[second + 2] ^= 0x20;
    Files.write(seg, bytes);
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot a = t.read("p/a.gram");
      assertThat(a.failure()).contains("damaged");
      assertThatThrownBy(() -> t.patch("p/a.gram", a.rev(), a.shortHash(), "refused", ops(set("A", "d", "x"))))
          .isInstanceOfSatisfying(GramException.class, e -> assertThat(e.code().name()).isEqualTo("E_INTEGRITY"));
      assertThat(a.state()).as("still readable as the file holds it").isNotNull();
      DocSnapshot other = t.read("p/b.gram");
      assertThat(other.failure()).as("a document whose records are intact").isNull();
      assertThat(other.state().record("b1")).isNotNull();
      t.vault.checkpointNow();
      t.vault.checkpointNow();
    }
    assertThat(segments()).as("the damaged records are kept for a repair, even after a clean stop").isNotEmpty();
  }

  /**
   * An editor saving in place truncates the file, then writes it, and the watcher hears the
   * truncate: the document, read between the two, must wait for the editor's text, not take the
   * empty file as a replacement (which set the logged revisions aside and started a new history).
   */
  @Test
  void anEditorsTruncateBeforeItsWriteIsNotTakenForAnEmptyDocument() throws Exception {
    editorSavesInTwoSteps((file, edited) -> Files.write(file, new byte[0]));
  }

  /** The same for an editor that keeps a backup (vim's default): the file is renamed away first. */
  @Test
  void anEditorsRenameBeforeItsWriteIsNotTakenForADeletion() throws Exception {
    editorSavesInTwoSteps((file, edited) -> Files.move(file, file.resolveSibling("a.gram~")));
  }

  /**
   * An editor (or a copy) that writes a large file in pieces: read after the first piece, the file
   * is cut in its history, which does not parse, and must not be taken for a damaged document.
   */
  @Test
  void anEditorsSaveCutInItsHistoryIsNotTakenForADamagedDocument() throws Exception {
    editorSavesInTwoSteps((file, edited) -> Files.writeString(file, edited.substring(0, edited.length() - 40)));
  }

  /**
   * The same, read when the first piece ends just before the history: that parses, as a document
   * with no history, and must not be taken for a replacement of this one.
   */
  @Test
  void anEditorsSaveCutBeforeItsHistoryIsNotTakenForAReplacement() throws Exception {
    editorSavesInTwoSteps((file, edited) -> Files.writeString(file, edited.substring(0, edited.indexOf("\n@history ") + 1)));
  }

  private interface FirstStep {
    void take(Path file, String edited) throws IOException;
  }

  /**
   * Three logged revisions; another program's save whose first step is {@code first} and whose
   * second, 10 ms later, writes the edited text; between the two, what the watcher does on the
   * first step's event. The edit must become revision 4, after the logged ones, none set aside.
   */
  private void editorSavesInTwoSteps(FirstStep first) throws Exception {
    try (TestVault t = withRevisions(3)) {
      Path file = dir.resolve("p/a.gram");
      String edited = Files.readString(file).replaceFirst("\nt A\n", "\nt Edited by hand\n");
      first.take(file, edited);
      Thread editor = new Thread(() -> {
        try {
          Thread.sleep(10);
          Files.writeString(file, edited);
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      editor.start();
      DocSnapshot s = TestVault.await(t.vault.refresh(t.vault.paths().writableDocument("p/a.gram")));
      editor.join();
      assertThat(s).as("the document, not a deletion").isNotNull();
      assertThat(s.rev()).as("the edit after the three logged revisions").isEqualTo(4);
      assertThat(s.revisions().get(4).actor()).isEqualTo("external");
      assertThat(s.state().owner().first("t")).isEqualTo("Edited by hand");
      assertThat(s.stateAt(3).record("t3")).as("the logged revisions are kept").isNotNull();
      try (Stream<Path> all = Files.walk(dir)) {
        assertThat(all.filter(f -> f.toString().contains(SetAsideFiles.FOLDER) && Files.isRegularFile(f)).toList())
            .as("nothing set aside").isEmpty();
      }
    }
  }

  @Test
  void anEditByAnotherProgramBeforeTheCheckpointBecomesTheNextRevisionAfterTheLoggedOnes() throws Exception {
    try (TestVault t = withRevisions(3)) {
      Path file = dir.resolve("p/a.gram");
      String text = Files.readString(file);
      // Another program changes the owner's title in the file, which still holds revision 0 only.
      Files.writeString(file, text.replaceFirst("\nt A\n", "\nt Edited by hand\n"));
      t.vault.checkpointNow();
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.rev()).isEqualTo(4);
      assertThat(s.revisions().get(4).actor()).isEqualTo("external");
      assertThat(s.state().owner().first("t")).isEqualTo("Edited by hand");
      assertThat(s.stateAt(3).record("t3")).as("the logged revisions are kept").isNotNull();
      assertThat(historySize(file)).isEqualTo(5);
    }
  }

  /**
   * What a cluster's followers see every checkpoint round: another writer's checkpoint of
   * revisions this copy already holds. Nothing is new in it: no revision of another program, nothing
   * set aside, and the next checkpoint still writes the revision the file lacks.
   */
  @Test
  void anotherWritersCheckpointOfRevisionsHeldHereIsNoEdit() throws Exception {
    try (TestVault t = withRevisions(3)) {
      Path file = dir.resolve("p/a.gram");
      DocSnapshot s = t.read("p/a.gram");
      Files.write(file, s.requireHistory().prefix(3).fileBytes(s.stateAt(2)));
      assertThat(historySize(file)).isEqualTo(3);
      t.vault.checkpointNow();
      DocSnapshot after = t.read("p/a.gram");
      assertThat(after.rev()).isEqualTo(3);
      assertThat(after.revisions()).extracting(r -> r.actor()).doesNotContain("external");
      assertThat(historySize(file)).as("the checkpoint wrote the revision the file lacked").isEqualTo(4);
      assertThat(Files.readString(file)).contains("req req-3");
      assertThat(wal().resolve("set-aside")).satisfiesAnyOf(
          p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
    }
  }

  @Test
  void anEditThatKeepsSizeAndModificationTimeIsStillNeverOverwritten() throws Exception {
    try (TestVault t = withRevisions(2)) {
      t.vault.checkpointNow();
      DocSnapshot s = t.read("p/a.gram");
      t.patch("p/a.gram", s.rev(), s.shortHash(), "only-in-log", ops(add("task", "x", "X")));
      Path file = dir.resolve("p/a.gram");
      java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(file);
      String text = Files.readString(file);
      // One history byte changed in place, same size, the old modification time put back.
      String tampered = text.replaceFirst("\nby test-agent\n", "\nby test-agenT\n");
      assertThat(tampered).hasSameSizeAs(text).isNotEqualTo(text);
      Files.writeString(file, tampered);
      Files.setLastModifiedTime(file, mtime);
      t.vault.checkpointNow();
      assertThat(Files.readString(file)).as("the tampered file is kept as it is").isEqualTo(tampered);
      assertThat(t.read("p/a.gram").failure()).as("its history no longer verifies").isNotNull();
      try (Stream<Path> aside = Files.list(wal().resolve("set-aside"))) {
        assertThat(Files.readString(aside.toList().get(0))).contains("req only-in-log");
      }
    }
  }

  @Test
  void aFileReplacedBeforeTheCheckpointWinsAndTheLoggedRevisionsAreSetAside() throws Exception {
    try (TestVault t = withRevisions(2)) {
      Path file = dir.resolve("p/a.gram");
      Files.writeString(file, "@gram 2\ndoc other\nt Replaced\n");
      t.vault.checkpointNow();
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.state().owner().first("t")).isEqualTo("Replaced");
      assertThat(Files.readString(file)).as("never overwritten").isEqualTo("@gram 2\ndoc other\nt Replaced\n");
      try (Stream<Path> aside = Files.list(wal().resolve("set-aside"))) {
        List<Path> files = aside.toList();
        assertThat(files).hasSize(1);
        assertThat(Files.readString(files.get(0))).contains("@rev 1\n", "@rev 2\n", "req req-2");
      }
    }
  }

  @Test
  void aFailedFsyncAcknowledgesNothingAndARetryWithTheSameRequestIdSettlesIt() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir);
    TestVault t = withRevisions(disk.root(), 2);
    disk.failFsync(name -> name.endsWith(".wal"), 1);
    DocSnapshot s = t.read("p/a.gram");
    GramException e = t.patchFails("p/a.gram", s.rev(), s.shortHash(), "unsure", ops(add("task", "u", "U")));
    assertThat(e.code().name()).isEqualTo("COMMIT_UNKNOWN");
    assertThat(e.getMessage()).startsWith("Replacement published but durability is uncertain: ");
    assertThat(t.read("p/a.gram").rev()).as("nothing published").isEqualTo(2);
    CommitReceipt retry = t.patch("p/a.gram", s.rev(), s.shortHash(), "unsure", ops(add("task", "u", "U")));
    assertThat(retry.rev()).isEqualTo(3);
    // Reads went on meanwhile, and after a crash exactly one copy of the write is there.
    t.vault.abandon();
    try (TestVault again = TestVault.open(dir)) {
      DocSnapshot after = again.read("p/a.gram");
      assertThat(after.failure()).isNull();
      assertThat(after.rev()).isEqualTo(3);
      assertThat(after.revisions().stream().filter(r -> "unsure".equals(r.requestId())).count()).isEqualTo(1);
    }
  }

  @Test
  void aWriteTheDiskRefusesIsEStorageAndLosesNoEarlierWrite() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir);
    TestVault t = withRevisions(disk.root(), 3);
    disk.failWrites(name -> name.endsWith(".wal"), "No space left on device", Integer.MAX_VALUE);
    DocSnapshot s = t.read("p/a.gram");
    GramException e = t.patchFails("p/a.gram", s.rev(), s.shortHash(), "full", ops(add("task", "f", "F")));
    assertThat(e.code().name()).isEqualTo("E_STORAGE");
    assertThat(e.getMessage()).isEqualTo("Storage commit failed: No space left on device");
    assertThat(t.read("p/a.gram").rev()).isEqualTo(3);
    disk.clearFaults();
    t.vault.abandon();
    try (TestVault again = TestVault.open(dir)) {
      assertThat(again.read("p/a.gram").rev()).isEqualTo(3);
      again.assertChainValid("p/a.gram");
    }
  }

  @Test
  void aCheckpointTheDiskRefusesKeepsTheFileWholeAndTheRevisionsInTheLog() throws Exception {
    for (String step : List.of("write", "rename")) {
      Path base = Files.createDirectories(dir.resolve(step));
      SimulatedDisk disk = SimulatedDisk.over(base);
      try (TestVault t = TestVault.openWithoutTimedCheckpoints(disk.root())) {
        t.create("p/a.gram", "A", "");
        for (int i = 1; i <= 3; i++) {
          DocSnapshot s = t.read("p/a.gram");
          t.patch("p/a.gram", s.rev(), s.shortHash(), step + i, ops(add("task", "t" + i, "T" + i)));
        }
        Path file = base.resolve("p/a.gram");
        byte[] before = Files.readAllBytes(file);
        if (step.equals("write")) {
          disk.failWrites(name -> name.contains(".tmp-"), "No space left on device", Integer.MAX_VALUE);
        } else {
          disk.failRenames(name -> name.equals("a.gram"), "Input/output error", Integer.MAX_VALUE);
        }
        t.vault.checkpointNow();
        assertThat(Files.readAllBytes(file)).as("%s fault: the file keeps its last whole version", step).isEqualTo(before);
        try (Stream<Path> left = Files.list(base.resolve("p"))) {
          assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left").containsExactly("a.gram");
        }
        assertThat(WriteAheadLog.segmentFiles(base.resolve(WriteAheadLog.FOLDER))).isNotEmpty();
        assertThat(t.vault.metrics().checkpointsOwed()).isEqualTo(1);
        assertThat(t.read("p/a.gram").rev()).as("reads go on").isEqualTo(3);
        disk.clearFaults();
        t.vault.checkpointNow();
        assertThat(historySize(file)).isEqualTo(4);
        assertThat(t.vault.metrics().checkpointsOwed()).isZero();
      }
    }
  }

  @Test
  void aSecondVaultOnTheSameFolderIsRefusedWhileTheFirstHoldsTheLog() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      Vault second = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 2);
      assertThatThrownBy(second::openLog)
          .isInstanceOf(VaultInUseException.class)
          .hasMessageContaining("is being served by another gram-mcp process (pid " + ProcessHandle.current().pid() + ")");
    }
    Vault third = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 2);
    third.openLog(); // free again once the first closed
    TestVault.await(third.close());
  }

  @Test
  void theLogFolderIsNoDocumentAndNoPathReachesIt() throws Exception {
    try (TestVault t = withRevisions(1)) {
      assertThat(t.vault.documents()).extracting(DocSnapshot::path).containsExactly("p/a.gram");
      assertThatThrownBy(() -> t.vault.paths().document(".gram-wal/LOCK")).isInstanceOf(GramException.class);
    }
  }

  static int indexOf(byte[] hay, byte[] needle, int from) {
    outer:
    for (int i = from; i <= hay.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }

  static void copyTree(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : s.toList()) {
        if (Files.isRegularFile(p) && !p.getFileName().toString().equals(WriteAheadLog.LOCK_FILE)) {
          Files.copy(p, to.resolve(p.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
