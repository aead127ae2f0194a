package dev.gram.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads LazyFS's log of operations for the sign of an acknowledgement without durability in
 * the write-ahead log: a write to a segment that no fsync of that segment ever followed, while an
 * fsync of a newer segment did. The log acknowledges every record up to the sequence number an
 * fsync covered, across segments, so a record in an older segment that was never synced can have
 * been acknowledged by the newer segment's fsync; a power cut before a checkpoint wrote it into
 * its document loses it. A correct log syncs the older segment too before it acknowledges past
 * that record, and then nothing is counted.
 *
 * <p>LazyFS logs each operation as it starts, one line each, in the order they start: a write
 * that the server issued after an fsync had returned is logged after that fsync.
 */
final class OpLog {
  private static final Pattern OP =
      Pattern.compile("\\[lazyfs\\.ops\\]: lfs_(write|fsync)\\(path=([^,)]*/\\.gram-wal/([0-9a-f]+)\\.wal)(?:,size=(\\d+),off=(\\d+))?");
  /** Every segment starts with an 8-byte header, written when it is created. */
  private static final String HEADER = "8,0";

  private OpLog() {}

  /**
   * @param writes log writes never followed by an fsync of their segment but followed by one of a
   *     newer segment
   * @param segments one line per such segment: its name, those writes' offsets, the newer segment
   */
  record Result(int writes, List<String> segments) {}

  static Result writesNeverSynced(Path lazyfsLog) throws IOException {
    if (!Files.exists(lazyfsLog)) {
      return new Result(0, List.of());
    }
    Map<String, Long> segmentNumber = new HashMap<>();
    Map<String, List<String>> pending = new HashMap<>(); // offsets written since the segment's last fsync
    Map<String, String> overtaken = new TreeMap<>(); // segment -> what a newer segment's fsync left unsynced
    Map<String, Integer> overtakenWrites = new HashMap<>();
    try (BufferedReader in = Files.newBufferedReader(lazyfsLog, StandardCharsets.ISO_8859_1)) {
      for (String line; (line = in.readLine()) != null; ) {
        if (!line.contains(".wal")) {
          continue;
        }
        Matcher m = OP.matcher(line);
        if (!m.find()) {
          continue;
        }
        String file = m.group(3) + ".wal";
        long number = Long.parseUnsignedLong(m.group(3), 16);
        segmentNumber.put(file, number);
        if (m.group(1).equals("write")) {
          if (!(m.group(4) + "," + m.group(5)).equals(HEADER)) {
            pending.computeIfAbsent(file, k -> new ArrayList<>()).add(m.group(5) + "+" + m.group(4));
          }
        } else {
          pending.remove(file);
          overtaken.remove(file);
          overtakenWrites.remove(file);
          pending.forEach((older, offsets) -> {
            if (segmentNumber.get(older) < number) {
              overtaken.put(older, older + ": writes at " + String.join(", ", offsets)
                  + " never fsynced; " + file + " was fsynced after them");
              overtakenWrites.put(older, offsets.size());
            }
          });
        }
      }
    }
    return new Result(overtakenWrites.values().stream().mapToInt(Integer::intValue).sum(),
        List.copyOf(overtaken.values()));
  }
}
