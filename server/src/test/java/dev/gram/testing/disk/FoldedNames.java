package dev.gram.testing.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;

/**
 * Names as a case-insensitive, normalization-insensitive volume reads them (macOS's APFS and
 * Windows' NTFS by default): a name finds the entry that differs from it only in the case of its
 * letters or in its Unicode normalization, and keeps that entry's spelling; a new name is created
 * as it is spelled. The real files under a test are on a volume that tells such names apart, so
 * each name is looked up in its folder before the operation reaches the real file.
 */
final class FoldedNames {
  private FoldedNames() {}

  /** What such a volume compares: the NFC form in lower case. */
  static String fold(String name) {
    return Normalizer.normalize(name, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
  }

  /** {@code real} (under {@code base}) with each existing name spelled as the folder spells it. */
  static Path spelled(Path base, Path real) {
    if (!real.isAbsolute() || !real.startsWith(base) || real.equals(base)) {
      return real;
    }
    Path at = base;
    for (Path name : base.relativize(real)) {
      at = at.resolve(existing(at, name.toString()));
    }
    return at;
  }

  private static String existing(Path folder, String name) {
    if (name.equals(".") || name.equals("..") || Files.exists(folder.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
      return name;
    }
    String folded = fold(name);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path e : entries) {
        String n = e.getFileName().toString();
        if (fold(n).equals(folded)) {
          return n;
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      // a folder that is not there yet: the name is new
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return name;
  }
}
