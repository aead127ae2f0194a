package dev.gram.store;

import dev.gram.format.HistoryCodec;
import dev.gram.format.Revision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Where acknowledged revisions go when they can no longer join their document (another program
 * replaced or deleted its file before they were checkpointed): {@code set-aside/} in the log's
 * folder, as history entries a person can read and apply again (docs/gram-format.md §14.5).
 */
final class SetAsideFiles {
  static final String FOLDER = "set-aside";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private SetAsideFiles() {}

  /** Writes the revisions durably; returns the file written. */
  static Path write(Path logDir, String path, List<Revision> revisions, String why, Instant now) throws IOException {
    Path folder = logDir.resolve(FOLDER);
    Files.createDirectories(folder);
    Path file = folder.resolve(STAMP.format(now) + "-" + path.replaceAll("[^A-Za-z0-9._-]", "_") + ".revisions");
    StringBuilder sb = new StringBuilder();
    sb.append("# document ").append(path).append('\n').append("# ").append(why).append('\n');
    for (Revision r : revisions) {
      sb.append('\n').append(HistoryCodec.fileEntry(r));
    }
    new DurableFiles().replace(logDir, file, sb.toString().getBytes(StandardCharsets.UTF_8));
    return file;
  }
}
