package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.GramException;
import dev.gram.testing.disk.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vault on a volume that folds names, as macOS's and Windows' do by default: {@code
 * p/Notes.gram} and {@code p/notes.gram} are one file there, and so are a name's composed and
 * decomposed Unicode forms. Agents that spell one document two ways must meet one document, with
 * one history and one revision counter; before, each spelling had its own, both acknowledged
 * writes on the same base, and the next checkpoint of one set the other's revisions aside. The
 * volume is a {@link SimulatedDisk} whose folders fold names; the vault probes it as it would a
 * real one.
 */
class FoldingVolumeTest {
  @TempDir Path dir;

  @Test
  void twoSpellingsOfOneFileAreOneDocument() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    try (TestVault t = TestVault.open(disk.root())) {
      t.create("p/Notes.gram", "Notes", "# Body");
      DocSnapshot other = t.read("p/notes.gram");
      assertThat(other.state().title()).isEqualTo("Notes");
      assertThat(t.patch("p/notes.gram", 0, other.shortHash(), "r-1", ops(add("task", "a", "A"))).rev()).isEqualTo(1);
      GramException stale = t.patchFails("p/NOTES.gram", 0, other.shortHash(), "r-2", ops(add("task", "b", "B")));
      assertThat(stale.code().name()).as("the third spelling's base is stale too").isEqualTo("STALE_REVISION");
      assertThat(t.read("p/Notes.gram").rev()).isEqualTo(1);
      assertThat(t.vault.documentsUnder(t.vault.paths().folder("P"))).extracting(DocSnapshot::path)
          .as("the folder in another case").containsExactly("p/Notes.gram");
      t.vault.checkpointNow();
    }
    assertThat(files(dir.resolve("p"))).containsExactly("Notes.gram");
    assertThat(Files.readString(dir.resolve("p/Notes.gram"))).contains("@rev 1\n");
    assertThat(setAside()).isEmpty();
  }

  @Test
  void aCreateInAnotherCaseFindsTheDocumentThere() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    try (TestVault t = TestVault.open(disk.root())) {
      t.create("p/Notes.gram", "Notes", "# Body");
      GramException e = null;
      try {
        t.create("p/NOTES.gram", "Other notes", "# Body");
      } catch (GramException refused) {
        e = refused;
      }
      assertThat(e).as("a second create of the same file").isNotNull();
      assertThat(e.getMessage()).isEqualTo(StoreErrors.CREATE_EXISTS);
      assertThat(t.read("p/Notes.gram").state().title()).isEqualTo("Notes");
    }
  }

  @Test
  void aNewDocumentInAFolderNamedInAnotherCaseIsNamedAsTheFolderIs() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    try (TestVault t = TestVault.open(disk.root())) {
      t.create("projects/a.gram", "A", "# Body");
      assertThat(t.create("Projects/b.gram", "B", "# Body").path()).isEqualTo("projects/b.gram");
      assertThat(t.vault.documents()).extracting(DocSnapshot::path)
          .as("one project folder, as the volume has one").containsExactly("projects/a.gram", "projects/b.gram");
    }
    assertThat(files(dir)).contains("projects").doesNotContain("Projects");
  }

  @Test
  void composedAndDecomposedNamesAreOneDocument() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    try (TestVault t = TestVault.open(disk.root())) {
      t.create("p/caf\u00e9.gram", "Caf\u00e9", "# Body");
      DocSnapshot s = t.read("p/cafe\u0301.gram");
      t.patch("p/cafe\u0301.gram", s.rev(), s.shortHash(), "r-1", ops(add("task", "a", "A")));
      assertThat(t.read("p/caf\u00e9.gram").rev()).isEqualTo(1);
    }
    assertThat(files(dir.resolve("p"))).containsExactly("caf\u00e9.gram");
  }

  @Test
  void writesThroughTwoSpellingsSurviveACrashAsOneHistory() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    TestVault t = TestVault.openWithoutTimedCheckpoints(disk.root());
    t.create("p/Notes.gram", "Notes", "# Body");
    DocSnapshot s = t.read("p/Notes.gram");
    t.patch("p/notes.gram", 0, s.shortHash(), "r-1", ops(add("task", "a", "A")));
    DocSnapshot one = t.read("p/Notes.gram");
    t.patch("p/Notes.gram", 1, one.shortHash(), "r-2", ops(add("task", "b", "B")));
    t.vault.abandon();
    try (TestVault again = TestVault.open(SimulatedDisk.over(dir).foldingNames().root())) {
      DocSnapshot after = again.read("p/NOTES.gram");
      assertThat(after.failure()).isNull();
      assertThat(after.rev()).isEqualTo(2);
    }
    assertThat(setAside()).isEmpty();
  }

  @Test
  void theLogStillReplaysAfterThePersonRenamedTheFileToAnotherCase() throws Exception {
    SimulatedDisk disk = SimulatedDisk.over(dir).foldingNames();
    TestVault t = TestVault.openWithoutTimedCheckpoints(disk.root());
    t.create("p/notes.gram", "Notes", "# Body");
    DocSnapshot s = t.read("p/notes.gram");
    t.patch("p/notes.gram", 0, s.shortHash(), "r-1", ops(add("task", "a", "A")));
    t.vault.abandon();
    // While the server is down, someone renames the file in Finder; revision 1 is only in the log.
    Files.move(dir.resolve("p/notes.gram"), dir.resolve("p/Notes.gram"));
    try (TestVault again = TestVault.open(SimulatedDisk.over(dir).foldingNames().root())) {
      DocSnapshot after = again.read("p/Notes.gram");
      assertThat(after.failure()).isNull();
      assertThat(after.rev()).as("the log's revision, named in the old spelling").isEqualTo(1);
      assertThat(again.read("p/notes.gram").rev()).isEqualTo(1);
    }
    assertThat(setAside()).isEmpty();
  }

  @Test
  void aVolumeThatTellsNamesApartKeepsTwoDocuments() throws Exception {
    try (TestVault t = TestVault.open(SimulatedDisk.over(dir).root())) {
      t.create("p/Notes.gram", "Notes", "# Body");
      t.create("p/notes.gram", "notes", "# Body");
      assertThat(t.read("p/Notes.gram").state().title()).isEqualTo("Notes");
      assertThat(t.read("p/notes.gram").state().title()).isEqualTo("notes");
    }
    assertThat(files(dir.resolve("p"))).containsExactlyInAnyOrder("Notes.gram", "notes.gram");
  }

  @Test
  void theProbeLeavesNothingBehindAndClearsWhatACrashLeft() throws Exception {
    Path old = Files.createFile(dir.resolve(VaultNames.PROBE_PREFIX + "\u00e9-1-dead"));
    Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    Path recent = Files.createFile(dir.resolve(VaultNames.PROBE_PREFIX + "\u00e9-2-beef"));
    try (TestVault t = TestVault.open(dir)) {
      t.create("p/a.gram", "A", "# Body");
    }
    assertThat(files(dir)).as("an hour-old probe goes; one that may be another node's stays")
        .noneMatch(n -> n.endsWith("dead")).anyMatch(n -> n.endsWith("beef"))
        .filteredOn(n -> n.startsWith(VaultNames.PROBE_PREFIX)).hasSize(1);
  }

  private static List<String> files(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private List<Path> setAside() throws IOException {
    return TestVault.setAsideIn(dir);
  }
}
