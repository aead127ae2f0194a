package dev.gram.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a file looked like when we last read or wrote it: enough to notice that another program
 * changed it since.
 */
public record FileFingerprint(long size, long modifiedNanos, Object fileKey) {
  public static final FileFingerprint ABSENT = new FileFingerprint(-1, -1, null);

  public static FileFingerprint of(Path file) throws IOException {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new FileFingerprint(
          a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.fileKey());
    } catch (NoSuchFileException e) {
      return ABSENT;
    }
  }

  public boolean exists() {
    return size >= 0;
  }
}
