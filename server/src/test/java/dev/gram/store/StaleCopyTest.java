package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static dev.gram.store.TestVault.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.GramParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another program puts something else over a document's file after the file held every revision
 * (or some of them, the rest only in the log): an older copy (an editor's buffer saved over a
 * newer file, a checkout, a sync tool's restore), or a file with another history. Acknowledged
 * revisions must stay in the document's history, or be set aside; they were silently dropped.
 */
class StaleCopyTest {
  @TempDir Path dir;

  private static final String PATH = "p/a.gram";

  /** The vault, with a document of revisions 0 to {@code n}, every one of them in its file. */
  private TestVault withRevisions(int n) {
    TestVault t = TestVault.openWithoutTimedCheckpoints(dir);
    t.create(PATH, "A", "");
    for (int i = 1; i <= n; i++) {
      write(t, i);
    }
    t.vault.checkpointNow();
    return t;
  }

  private static void write(TestVault t, int i) {
    DocSnapshot s = t.read(PATH);
    t.patch(PATH, s.rev(), s.shortHash(), "req-" + i, ops(add("task", "t" + i, "Task " + i)));
  }

  private Path file() {
    return dir.resolve(PATH);
  }

  /** The revisions the document's file holds now. */
  private List<?> historyInFile() throws IOException {
    return GramParser.parseOrThrow(Files.readString(file())).history();
  }

  private DocSnapshot refresh(TestVault t) {
    return TestVault.await(t.vault.refresh(t.vault.paths().writableDocument(PATH)));
  }

  private List<Path> setAside() throws IOException {
    return TestVault.setAsideIn(dir);
  }

  @Test
  void anOlderCopyPutBackBecomesTheNextRevisionAfterTheOnesItLacks() throws Exception {
    try (TestVault t = withRevisions(1)) {
      String older = Files.readString(file());
      write(t, 2);
      write(t, 3);
      t.vault.checkpointNow();
      Files.writeString(file(), older);
      DocSnapshot s = refresh(t);
      assertThat(s.rev()).as("the copy's state after the three revisions").isEqualTo(4);
      assertThat(s.head().actor()).isEqualTo("external");
      assertThat(s.state().record("t3")).as("the copy's state: task 3 undone").isNull();
      assertThat(s.stateAt(3).record("t3")).as("revision 3 kept").isNotNull();
      assertThat(setAside()).isEmpty();
      assertThat(historyInFile())
          .as("the file holds every revision again at once: no log holds revisions 2 and 3").hasSize(5);
    }
  }

  /** The same while a later revision is only in the log: it stays too, and so do those between. */
  @Test
  void anOlderCopyPutBackWhileARevisionIsOnlyInTheLogKeepsEveryLaterRevision() throws Exception {
    try (TestVault t = withRevisions(1)) {
      String older = Files.readString(file());
      write(t, 2);
      t.vault.checkpointNow();
      write(t, 3);
      Files.writeString(file(), older);
      DocSnapshot s = refresh(t);
      assertThat(s.rev()).isEqualTo(4);
      assertThat(s.state().record("t2")).as("the copy's state").isNull();
      assertThat(s.stateAt(3).record("t3")).isNotNull();
      assertThat(setAside()).isEmpty();
      assertThat(historyInFile()).as("revision 2 is in no log").hasSize(5);
    }
    try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
      assertThat(t.read(PATH).rev()).as("after a restart").isEqualTo(4);
      assertThat(setAside()).isEmpty();
    }
  }

  @Test
  void anOlderCopyEditedBeforeItWasSavedKeepsTheRevisionsItLacksToo() throws Exception {
    try (TestVault t = withRevisions(1)) {
      String older = Files.readString(file());
      write(t, 2);
      t.vault.checkpointNow();
      Files.writeString(file(), older.replaceFirst("\nt A\n", "\nt Edited by hand\n"));
      DocSnapshot s = refresh(t);
      assertThat(s.rev()).isEqualTo(3);
      assertThat(s.state().owner().first("t")).isEqualTo("Edited by hand");
      assertThat(s.stateAt(2).record("t2")).as("revision 2 kept").isNotNull();
      assertThat(setAside()).isEmpty();
    }
  }

  /** The copy's state is the document's own (later revisions undid each other): nothing to adopt. */
  @Test
  void anOlderCopyWithTheSameStateIsWrittenOverAtOnceWithEveryRevision() throws Exception {
    try (TestVault t = withRevisions(1)) {
      String older = Files.readString(file());
      for (String title : List.of("Changed", "Task 1")) {
        DocSnapshot s = t.read(PATH);
        t.patch(PATH, s.rev(), s.shortHash(), "req-" + title, ops(set("t1", "t", title)));
      }
      t.vault.checkpointNow();
      Files.writeString(file(), older);
      DocSnapshot s = refresh(t);
      assertThat(s.rev()).isEqualTo(3);
      assertThat(historyInFile())
          .as("the revisions only this process held are in the file again").hasSize(4);
    }
  }

  /** What the README tells a person who wants the history itself back: stop, put back, start. */
  @Test
  void anOlderCopyPutBackWhileTheServerIsStoppedIsTheDocumentAtItsStart() throws Exception {
    String older;
    try (TestVault t = withRevisions(1)) {
      older = Files.readString(file());
      write(t, 2);
      write(t, 3);
    }
    Files.writeString(file(), older);
    try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
      DocSnapshot s = t.read(PATH);
      assertThat(s.rev()).isEqualTo(1);
      assertThat(s.state().record("t1")).isNotNull();
      assertThat(setAside()).as("a clean stop left nothing in the log to set aside").isEmpty();
    }
  }

  @Test
  void aFileWithAnotherHistoryWinsAndTheRevisionsItLacksAreSetAside() throws Exception {
    try (TestVault t = withRevisions(2)) {
      t.create("p/b.gram", "B", "");
      t.vault.checkpointNow();
      Files.copy(dir.resolve("p/b.gram"), file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      DocSnapshot s = refresh(t);
      assertThat(s.state().owner().first("t")).isEqualTo("B");
      assertThat(setAside()).hasSize(1);
      assertThat(Files.readString(setAside().get(0))).contains("@rev 0\n", "@rev 1\n", "@rev 2\n", "req req-2");
    }
  }

  @Test
  void aFileWithoutHistoryEditedAgainSetsNothingAside() throws Exception {
    try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
      Files.createDirectories(file().getParent());
      Files.writeString(file(), "@gram 2\ndoc a\nt By hand\n");
      assertThat(t.read(PATH).rev()).isZero();
      Files.writeString(file(), "@gram 2\ndoc a\nt By hand, again\n");
      DocSnapshot s = refresh(t);
      assertThat(s.state().owner().first("t")).isEqualTo("By hand, again");
      assertThat(setAside()).isEmpty();
    }
  }
}
