package dev.gram.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Folder trees for tests and benchmarks. */
public final class Trees {
  private Trees() {}

  /** Copies every folder and file under {@code from} to the same place under {@code to}. */
  public static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path t = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
        } else {
          Files.copy(f, t);
        }
      }
    }
  }

  /** Deletes {@code root} and everything under it; nothing there is fine. */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
