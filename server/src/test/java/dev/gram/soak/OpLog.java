package dev.gram.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads LazyFS's log of operations for the sign of an acknowledgement without durability in
 * the write-ahead log: a write to a segment that no fsync of that segment followed, while an
 * fsync of a newer segment did. The log acknowledges every record up to the sequence number an
 * fsync covered, across segments, so a record in an older segment that was never synced can have
 * been acknowledged by the newer segment's fsync; a power cut before a checkpoint wrote it into
 * its document loses it. A correct log syncs the older segment too (first) before it
 * acknowledges past that record, and then nothing is counted. An fsync of a segment that holds
 * only its header (a segment made durable as it is created) covers no record and is not counted.
 *
 * <p>LazyFS logs each operation as it starts, one line each, in the order they start: a write
 * that the server issued after an fsync had returned is logged after that fsync. Fed line by line
 * ({@link #accept}), after a cut ({@link #read}) or while the server runs ({@link Tail}).
 */
final class OpLog {
  private static final Pattern OP = Pattern.compile(
      "\\[lazyfs\\.ops\\]: lfs_(write|fsync)\\(path=[^,)]*/\\.gram-wal/([0-9a-f]+)\\.wal(?:,size=(\\d+),off=(\\d+))?");
  /** Every segment starts with an 8-byte header, written when it is created. */
  private static final String HEADER = "8@0";

  /**
   * @param writes log writes never followed by an fsync of their segment but followed by one of a
   *     newer segment
   * @param segments one line per such segment: its name, those writes' offsets, the newer segment
   */
  record Result(int writes, List<String> segments) {}

  private final Map<Long, List<String>> pending = new HashMap<>(); // segment -> writes since its last fsync
  private final Set<Long> holdingRecords = new HashSet<>();
  private final Map<Long, String> overtaken = new TreeMap<>(); // segment -> what a newer fsync left unsynced
  private final Map<Long, Integer> overtakenWrites = new HashMap<>();

  /** Reads a whole log after the fact. */
  static Result read(Path lazyfsLog) throws IOException {
    OpLog ops = new OpLog();
    if (Files.exists(lazyfsLog)) {
      try (BufferedReader in = Files.newBufferedReader(lazyfsLog, StandardCharsets.ISO_8859_1)) {
        for (String line; (line = in.readLine()) != null; ) {
          ops.accept(line);
        }
      }
    }
    return ops.result();
  }

  /** Takes one line of the log; true when an fsync just left writes of an older segment behind. */
  boolean accept(String line) {
    if (!line.contains(".wal")) {
      return false;
    }
    Matcher m = OP.matcher(line);
    if (!m.find()) {
      return false;
    }
    long segment = Long.parseUnsignedLong(m.group(2), 16);
    if (m.group(1).equals("write")) {
      String write = m.group(3) + "@" + m.group(4);
      if (!write.equals(HEADER)) {
        pending.computeIfAbsent(segment, k -> new ArrayList<>()).add(write);
        holdingRecords.add(segment);
      }
      return false;
    }
    pending.remove(segment);
    overtaken.remove(segment);
    overtakenWrites.remove(segment);
    if (!holdingRecords.contains(segment)) {
      return false; // a new segment's header made durable: it covers no record, acknowledges nothing
    }
    boolean found = false;
    for (Map.Entry<Long, List<String>> e : pending.entrySet()) {
      if (e.getKey() < segment && !e.getValue().isEmpty()) {
        overtaken.put(e.getKey(), name(e.getKey()) + ": writes (bytes@offset) " + String.join(", ", e.getValue())
            + " never fsynced; " + name(segment) + " was fsynced after them");
        found |= overtakenWrites.put(e.getKey(), e.getValue().size()) == null;
      }
    }
    return found;
  }

  Result result() {
    return new Result(overtakenWrites.values().stream().mapToInt(Integer::intValue).sum(),
        List.copyOf(overtaken.values()));
  }

  private static String name(long segment) {
    return String.format("%016x.wal", segment);
  }

  /** Follows a log as LazyFS writes it (LazyFS flushes every line). */
  static final class Tail {
    private final Path log;
    private final OpLog ops = new OpLog();
    private long position;
    private String partial = "";

    Tail(Path log) {
      this.log = log;
    }

    /** Reads what was added since the last call; true when it shows writes left behind. */
    boolean poll() throws IOException {
      if (!Files.exists(log)) {
        return false;
      }
      byte[] bytes;
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
        long length = f.length();
        if (length <= position) {
          return false;
        }
        bytes = new byte[(int) Math.min(length - position, 8 << 20)];
        f.seek(position);
        f.readFully(bytes);
        position += bytes.length;
      }
      String text = partial + new String(bytes, StandardCharsets.ISO_8859_1);
      int end = text.lastIndexOf('\n');
      partial = text.substring(end + 1);
      boolean found = false;
      for (String line : text.substring(0, end + 1).split("\n")) {
        found |= ops.accept(line);
      }
      return found;
    }
  }
}
