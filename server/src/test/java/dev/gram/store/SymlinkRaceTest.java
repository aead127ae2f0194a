package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.GramException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project folder flipped in a loop between a real folder and a symbolic link to a folder
 * outside the vault while documents are created in it: nothing may be written outside, not even
 * a temporary file.
 */
class SymlinkRaceTest {
  @TempDir Path tmp;

  @Test
  void createsRacingAFolderSwappedForALinkNeverWriteOutsideTheVault() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Path race = vault.resolve("race");
    Path parked = vault.resolve(".parked");
    Path link = vault.resolve(".link");
    Files.createDirectories(race);
    Files.createSymbolicLink(link, outside);
    AtomicBoolean stop = new AtomicBoolean();
    Thread flipper = new Thread(() -> {
      while (!stop.get()) {
        try {
          Files.move(race, parked, StandardCopyOption.ATOMIC_MOVE);
          Files.move(link, race, StandardCopyOption.ATOMIC_MOVE);
          Thread.onSpinWait();
          Files.move(race, link, StandardCopyOption.ATOMIC_MOVE);
          Files.move(parked, race, StandardCopyOption.ATOMIC_MOVE);
        } catch (Exception e) {
          // a create made the folder meanwhile, or a move lost a race: put things back and go on
          try {
            if (Files.isSymbolicLink(race)) {
              Files.move(race, link, StandardCopyOption.ATOMIC_MOVE);
            }
            if (Files.isDirectory(parked) && !Files.exists(race)) {
              Files.move(parked, race, StandardCopyOption.ATOMIC_MOVE);
            }
          } catch (Exception ignored) {
            // next round
          }
        }
      }
    });
    int created = 0;
    int refused = 0;
    try (TestVault t = TestVault.open(vault)) {
      flipper.start();
      for (int i = 0; i < 200; i++) {
        try {
          t.create("race/r" + i + ".gram", "R" + i, "");
          created++;
        } catch (GramException e) {
          refused++;
        }
      }
    } finally {
      stop.set(true);
      flipper.join();
    }
    try (Stream<Path> s = Files.walk(outside)) {
      List<Path> leaked = s.filter(p -> !p.equals(outside)).toList();
      assertThat(leaked).as("files written outside the vault (%d created, %d refused)", created, refused).isEmpty();
    }
    assertThat(created + refused).isEqualTo(200);
  }
}
