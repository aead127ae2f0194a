package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The durable replace with folder fsyncs shared between writers of one folder. */
class DurableFilesTest {
  @TempDir Path dir;

  @Test
  void manyWritersInOneFolderAllFinishWithTheirLastContent() throws Exception {
    DurableFiles files = new DurableFiles();
    int writers = 16;
    int rounds = 40;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        Path target = dir.resolve("doc-" + w + ".gram");
        done.add(pool.submit(() -> {
          for (int r = 0; r < rounds; r++) {
            files.replace(target, ("round " + r + "\n").repeat(100).getBytes(StandardCharsets.UTF_8));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS); // a lost wake-up in the group commit would hang here
      }
    } finally {
      pool.shutdownNow();
    }
    for (int w = 0; w < writers; w++) {
      assertThat(Files.readString(dir.resolve("doc-" + w + ".gram"))).startsWith("round " + (rounds - 1) + "\n");
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.filter(DurableFiles::isTemporary)).isEmpty();
    }
  }

  @Test
  void aFailedFolderSyncIsReportedToItsWriterAndTheNextWriterSyncsAgain() throws Exception {
    dev.gram.testing.disk.SimulatedDisk disk = dev.gram.testing.disk.SimulatedDisk.over(dir);
    DurableFiles files = new DurableFiles();
    Path a = disk.root().resolve("a.gram");
    Path b = disk.root().resolve("b.gram");
    disk.failFsync(name -> name.equals(dir.getFileName().toString()), 1);
    assertThatThrownBy(() -> files.replace(a, "a\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(DurableFiles.PublishedNotDurable.class);
    // Published all the same (readers may see it), but not acknowledged as durable.
    assertThat(Files.readString(a)).isEqualTo("a\n");
    files.replace(b, "b\n".getBytes(StandardCharsets.UTF_8));
    files.replace(a, "a2\n".getBytes(StandardCharsets.UTF_8));
    assertThat(Files.readString(a)).isEqualTo("a2\n");
    assertThat(Files.readString(b)).isEqualTo("b\n");
  }
}
