package dev.gram.store;

import dev.gram.format.Hashes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a file looked like when we last read or wrote it: enough to notice that another program
 * changed it since.
 *
 * <p>Size, modification time and file key are what a cheap {@code stat} compares, and all that
 * {@link #equals} compares. They miss an edit that keeps the size and puts the old modification
 * time back; so, when known, {@code contentSha256} (the SHA-256 of the bytes read or written) is
 * kept too, and checked with {@link #contentChanged} before the file is replaced, never on a read.
 */
public record FileFingerprint(long size, long modifiedNanos, Object fileKey, String contentSha256) {
  public static final FileFingerprint ABSENT = new FileFingerprint(-1, -1, null, null);

  public static FileFingerprint of(Path file) throws IOException {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new FileFingerprint(
          a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.fileKey(), null);
    } catch (NoSuchFileException e) {
      return ABSENT;
    }
  }

  /** The file's fingerprint now, with the hash of {@code bytes}, which it was just read or written as. */
  public static FileFingerprint of(Path file, byte[] bytes) throws IOException {
    return of(file).withContent(Hashes.sha256(bytes));
  }

  FileFingerprint withContent(String sha256) {
    return exists() ? new FileFingerprint(size, modifiedNanos, fileKey, sha256) : this;
  }

  public boolean exists() {
    return size >= 0;
  }

  /**
   * Whether the file's bytes differ from what this fingerprint was taken of, though its stat may
   * match: reads the file. False when the content hash is not known.
   */
  boolean contentChanged(Path file) throws IOException {
    if (contentSha256 == null || !exists()) {
      return false;
    }
    try {
      return !Hashes.sha256(Files.readAllBytes(file)).equals(contentSha256);
    } catch (NoSuchFileException e) {
      return true;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileFingerprint f
        && size == f.size
        && modifiedNanos == f.modifiedNanos
        && java.util.Objects.equals(fileKey, f.fileKey);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(size, modifiedNanos, fileKey);
  }
}
