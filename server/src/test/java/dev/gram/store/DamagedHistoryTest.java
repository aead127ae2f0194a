package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.base.GramException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file whose history is cut or altered keeps its current state readable (format §9), refuses
 * writes with {@code E_INTEGRITY}, and says what is wrong in words a person can act on.
 */
class DamagedHistoryTest {
  @TempDir Path dir;

  private String threeRevisions() throws Exception {
    try (TestVault t = TestVault.open(dir)) {
      t.create("p/a.gram", "A", "");
      for (int i = 1; i <= 3; i++) {
        DocSnapshot s = t.read("p/a.gram");
        t.patch("p/a.gram", s.rev(), s.shortHash(), "r" + i, ops(add("task", "t" + i, "Task " + i)));
      }
    }
    return Files.readString(dir.resolve("p/a.gram"));
  }

  @Test
  void aHistoryCutAnywhereLeavesTheStateAboveItReadable() throws Exception {
    String whole = threeRevisions();
    int history = whole.indexOf("\n@history ") + 1;
    VaultPath vp = new PathResolver(dir, List.of()).document("p/a.gram");
    int cuts = 0;
    // Every cut point inside the history section, after its first line.
    for (int cut = whole.indexOf('\n', history) + 1; cut < whole.length() - 1; cut += 3) {
      Files.writeString(vp.file(), whole.substring(0, cut));
      DocSnapshot s = DocumentLoader.load(vp);
      assertThat(s.state()).as("state readable with the file cut at %d", cut).isNotNull();
      assertThat(s.state().record("t3")).isNotNull();
      assertThat(s.writable()).isFalse();
      assertThat(s.rev()).as("the revision the file names").isEqualTo(3);
      assertThat(s.failure()).as("cut at %d", cut).containsAnyOf("history is damaged", "History truncated");
      cuts++;
    }
    assertThat(cuts).isGreaterThan(100);
  }

  @Test
  void aDamagedHistoryRefusesWritesAndPastRevisionsButServesTheCurrentState() throws Exception {
    String whole = threeRevisions();
    Files.writeString(dir.resolve("p/a.gram"), whole.substring(0, whole.length() - 40));
    try (TestVault t = TestVault.open(dir)) {
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.state().record("t2")).isNotNull();
      assertThatThrownBy(() -> s.stateAt(1))
          .isInstanceOfSatisfying(GramException.class, e -> {
            assertThat(e.code().name()).isEqualTo("E_INTEGRITY");
            assertThat(e.getMessage()).contains("history is damaged").doesNotContain("does not exist");
          });
      assertThatThrownBy(() -> t.patch("p/a.gram", s.rev(), s.shortHash(), "refused", ops(add("task", "x", "X"))))
          .isInstanceOfSatisfying(GramException.class, e -> assertThat(e.code().name()).isEqualTo("E_INTEGRITY"));
    }
  }

  @Test
  void anAlteredHeadLineSaysWhatDoesNotMatch() throws Exception {
    String whole = threeRevisions();
    int at = whole.indexOf("\n@history 3 ") + "\n@history 3 ".length();
    char c = whole.charAt(at);
    String altered = whole.substring(0, at) + (c == 'a' ? 'b' : 'a') + whole.substring(at + 1);
    Files.writeString(dir.resolve("p/a.gram"), altered);
    DocSnapshot s = DocumentLoader.load(new PathResolver(dir, List.of()).document("p/a.gram"));
    assertThat(s.state()).isNotNull();
    assertThat(s.failure())
        .isEqualTo("History altered: the chain hash on the @history line is not that of revision 3, the last entry");
  }
}
