package dev.gram.store;

import static dev.gram.store.TestVault.add;
import static dev.gram.store.TestVault.ops;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gram.base.GramException;
import dev.gram.format.GramParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vault on a real, small file system that fills up: a 2 MiB tmpfs, mounted for the test. Needs
 * the right to mount (root in a container that allows it); skipped, saying so, elsewhere.
 */
class FullDiskTest {
  @TempDir Path tmp;
  private Path disk;
  private boolean mounted;

  @BeforeEach
  void mount() throws Exception {
    disk = Files.createDirectories(tmp.resolve("small"));
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString())
        .redirectErrorStream(true).start();
    boolean done = p.waitFor(20, TimeUnit.SECONDS);
    mounted = done && p.exitValue() == 0;
    assumeTrue(mounted, "cannot mount a small tmpfs here (needs root and a container that allows mount): "
        + new String(p.getInputStream().readAllBytes()).strip());
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFullDiskAnswersEStorageSayingSoAndLosesNothingAcknowledged() throws Exception {
    Path vault = disk.resolve("vault");
    List<String> acked = new ArrayList<>();
    GramException refused = null;
    String big = "x".repeat(2_000);
    try (TestVault t = TestVault.open(vault)) {
      t.create("p/a.gram", "A", "");
      for (int i = 0; i < 5_000 && refused == null; i++) {
        DocSnapshot s = t.read("p/a.gram");
        try {
          t.patch("p/a.gram", s.rev(), s.shortHash(), "w" + i,
              ops(add("task", "n" + i, "Note " + i + " " + big)));
          acked.add("n" + i);
        } catch (GramException e) {
          refused = e;
        }
      }
      assertThat(refused).as("the disk filled up").isNotNull();
      assertThat(refused.code().name()).isEqualTo("E_STORAGE");
      assertThat(refused.getMessage()).contains("No space left on device");
      // Reads go on.
      assertThat(t.read("p/a.gram").state().record(acked.get(acked.size() - 1))).isNotNull();
      t.vault.abandon();
    }
    // Nothing truncated: every .gram file there still parses with its history.
    try (Stream<Path> files = Files.walk(vault)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".gram")).toList()) {
        assertThat(GramParser.parse(Files.readString(f))).as(f.toString()).isInstanceOf(GramParser.Success.class);
      }
    }
    try (TestVault t = TestVault.open(vault)) {
      DocSnapshot s = t.read("p/a.gram");
      assertThat(s.failure()).isNull();
      for (String id : acked) {
        assertThat(s.state().record(id)).as("acknowledged %s", id).isNotNull();
      }
    }
  }
}
