package dev.gram.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Another program's save, seen before it finished. An editor that saves in place truncates the
 * file, then writes it, a large file in several pieces; one that keeps a backup (vim's default)
 * renames the file away, then writes a new one. The watcher hears the first step, and a reload
 * between the steps finds the file gone, empty, cut in its history (it does not parse), or cut
 * just before its history (it parses, as a document without one). Taken at its word, that
 * replaced the document: every revision only in the log was set aside, and the editor's text,
 * read a moment later, started a history of its own.
 *
 * <p>So a document that held a history and now reads as one of those looks at its file again
 * every {@link #POLL_MS} ms, on its mailbox (an I/O thread), while the file keeps changing:
 * until it reads as a whole document, or has been left alone for {@link #QUIET_MS} (by its
 * modification time; a missing file, since it went missing), and at most {@link #MAX_WAIT_MS} in
 * all. A file that stays that way is then taken as it is, as every edit by another program is
 * (docs/gram-format.md §14.5), and so at once is one whose last change is older than that.
 */
final class SaveInProgress {
  private SaveInProgress() {}

  /** How long a file must be left alone before a half-finished look is taken as it is. */
  static final long QUIET_MS = 250;
  /** The longest one reload waits for a save to land, so a writer never stalls a document long. */
  static final long MAX_WAIT_MS = 2_000;
  private static final long POLL_MS = 2;

  /**
   * Whether {@code disk} (null: the file is gone) may be a save seen halfway, for a document that
   * held {@code mine}, which has a history.
   */
  static boolean seenHalfway(DocSnapshot mine, DocSnapshot disk) {
    return disk == null
        || disk.failure() != null
        || (disk.persistedRevisions() == 0 && mine.persistedRevisions() > 0);
  }

  /**
   * The file's document once the save has landed, starting from {@code disk}, which {@link
   * #seenHalfway} (null: the file is gone); {@code disk} itself when the file is left alone.
   */
  static DocSnapshot landed(VaultPath location, DocSnapshot mine, DocSnapshot disk) throws IOException {
    Path file = location.file();
    FileFingerprint seen = disk == null ? FileFingerprint.ABSENT : disk.fingerprint();
    long start = System.nanoTime();
    long goneSince = start;
    while (seenHalfway(mine, disk) && !leftAlone(seen, goneSince) && System.nanoTime() - start < ms(MAX_WAIT_MS)) {
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        // Shutting down: as it was read (reading again would fail on an interrupted channel).
        Thread.currentThread().interrupt();
        return disk;
      }
      if (FileFingerprint.of(file).equals(seen)) {
        continue;
      }
      DocumentLoader.FileBytes read = DocumentLoader.read(file);
      disk = read == null ? null : DocumentLoader.parse(location, read);
      if (read == null && seen.exists()) {
        goneSince = System.nanoTime();
      }
      seen = read == null ? FileFingerprint.ABSENT : read.fingerprint();
    }
    return disk;
  }

  private static boolean leftAlone(FileFingerprint seen, long goneSince) {
    if (!seen.exists()) {
      return System.nanoTime() - goneSince >= ms(QUIET_MS);
    }
    return System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(seen.modifiedNanos()) >= QUIET_MS;
  }

  private static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }
}
