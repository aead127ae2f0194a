package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.GramException;
import dev.gram.testing.disk.SimulatedDisk;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project folder swapped for a symbolic link to a folder outside the vault while documents are
 * created in it: nothing may be written outside, not even a temporary file. Once with the swap
 * forced at the one moment that matters, once flipping it in a loop as a stress.
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
  }

  /**
   * The race the loop above hopes to hit, forced: the create has checked the path and is about to
   * open the project folder when the folder becomes a link to a folder outside. The folder is
   * opened without following links, so the create is refused with E_PATH and nothing lands outside.
   */
  @Test
  void aFolderSwappedForALinkBetweenTheCheckAndTheWriteIsRefused() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("held"));
    Path outside = Files.createDirectories(tmp.resolve("outside-held"));
    Path race = Files.createDirectories(vault.resolve("race"));
    SimulatedDisk disk = SimulatedDisk.over(vault);
    try (TestVault t = TestVault.open(disk.root())) {
      // The durable create opens its folder from the vault's root, listing it first: held there.
      SimulatedDisk.Hold atOpen = disk.holdReads(name -> name.equals("held"));
      CompletableFuture<GramException> outcome = CompletableFuture.supplyAsync(() -> {
        try {
          t.create("race/r.gram", "R", "");
          return null;
        } catch (GramException e) {
          return e;
        }
      });
      assertThat(atOpen.reached(Duration.ofSeconds(20))).as("the create reached the folder's opening").isTrue();
      Files.move(race, vault.resolve(".parked"), StandardCopyOption.ATOMIC_MOVE);
      Files.createSymbolicLink(race, outside);
      atOpen.release();
      GramException refused = outcome.get(20, TimeUnit.SECONDS);
      assertThat(refused).as("the create saw the link").isNotNull();
      assertThat(refused.code().name()).isEqualTo("E_PATH");
    }
    try (Stream<Path> s = Files.walk(outside)) {
      assertThat(s.filter(p -> !p.equals(outside)).toList()).as("files written outside the vault").isEmpty();
    }
  }
}
