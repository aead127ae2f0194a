package dev.gram.server.cli;

import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.Revision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * A vault's size at a glance, read from its files: documents, records, revisions, bytes on disk
 * and the last write. Parses each file; verifying is {@code validate}'s job.
 */
record VaultSummary(int documents, int unreadable, long records, long revisions, long bytes, Instant lastWrite, String lastPath) {

  static VaultSummary of(Path root) throws IOException {
    int docs = 0;
    int unreadable = 0;
    long records = 0;
    long revisions = 0;
    long bytes = 0;
    Instant last = null;
    String lastPath = null;
    for (VaultFiles.DocFile doc : VaultFiles.list(root).documents()) {
      docs++;
      bytes += Files.size(doc.file());
      Instant written = Files.getLastModifiedTime(doc.file()).toInstant();
      GramParser.Result parsed;
      try {
        parsed = GramParser.parse(Files.readString(doc.file(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        unreadable++;
        continue;
      }
      if (parsed instanceof GramParser.Success s) {
        GramFile f = s.file();
        records += f.state().records().size();
        revisions += Math.max(1, f.history().size());
        if (f.hasHistory()) {
          Revision head = f.history().get(f.history().size() - 1);
          written = head.recordedAt().isAfter(written) ? head.recordedAt() : written;
        }
      } else {
        unreadable++;
      }
      if (last == null || written.isAfter(last)) {
        last = written;
        lastPath = doc.path();
      }
    }
    return new VaultSummary(docs, unreadable, records, revisions, bytes, last, lastPath);
  }

  /** Bytes of every file under a folder (0 when it does not exist). */
  static long folderBytes(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    }
  }

  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
