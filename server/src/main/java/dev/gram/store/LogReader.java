package dev.gram.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log's segments at start, before any document serves a request.
 *
 * <p>A frame is good when its magic, length and CRC-32C check out and its payload decodes. A bad
 * frame followed by no good frame until the end of its segment is a torn tail: a write the crash
 * interrupted, never acknowledged (an acknowledgement waits for an fsync that covers the whole
 * frame), discarded with a log line. A bad frame followed by a good one is damage in the middle:
 * the document it names, when its header can still be read, is stopped with {@code E_INTEGRITY};
 * when even that is unreadable, every document whose records then fail to chain is.
 */
final class LogReader {
  private static final Logger LOG = LoggerFactory.getLogger(LogReader.class);

  private LogReader() {}

  /**
   * Everything the log holds, in sequence order, with void records applied.
   *
   * @param damagedFrom per damaged document, the first sequence number its damage may hide: its
   *     records before it are whole and in order, and are replayed before the document stops
   */
  record Scan(
      List<WriteAheadLog.Segment> segments,
      Map<String, List<LogRecord.RevisionRecord>> byDocument,
      Map<String, String> damagedDocuments,
      Map<String, Long> damagedFrom,
      String unattributedDamage,
      long lastSeq,
      int records) {}

  /** Bytes that are not a good frame, followed by a good one: the records {@code from..to} may be in them. */
  private record Gap(String path, String why, long from, long to) {}

  static Scan read(List<Path> files) throws IOException {
    List<WriteAheadLog.Segment> segments = new ArrayList<>();
    List<LogRecord.RevisionRecord> revisions = new ArrayList<>();
    List<LogRecord.VoidRecord> voids = new ArrayList<>();
    List<Gap> gaps = new ArrayList<>();
    long lastSeq = 0;
    for (Path file : files) {
      WriteAheadLog.Segment seg = new WriteAheadLog.Segment(file, firstSeqOf(file));
      segments.add(seg);
      long prevSeq = seg.firstSeq - 1;
      // A segment is named by the record it was created for: a crash may have left it without that
      // record, and the next segment must still get a name of its own.
      lastSeq = Math.max(lastSeq, seg.firstSeq);
      byte[] bytes = Files.readAllBytes(file);
      int pos = WriteAheadLog.SEGMENT_HEADER.length;
      if (bytes.length < pos) {
        continue; // created, header not yet written: holds nothing
      }
      if (!Arrays.equals(bytes, 0, pos, WriteAheadLog.SEGMENT_HEADER, 0, pos)) {
        LOG.error("log segment {} does not start with GRAMWAL1; reading its frames anyway", file);
      }
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (pos < bytes.length) {
        Frame f = frameAt(b, pos);
        if (f != null) {
          lastSeq = Math.max(lastSeq, f.seq);
          prevSeq = f.seq;
          try {
            LogRecord r = LogRecord.decode(f.seq, Arrays.copyOfRange(bytes, f.payloadAt, f.payloadAt + f.length));
            if (r instanceof LogRecord.RevisionRecord rr) {
              revisions.add(rr);
              seg.docs.add(rr.path());
            } else if (r instanceof LogRecord.VoidRecord v) {
              voids.add(v);
              seg.holdsVoids = true;
            }
            seg.records++;
          } catch (RuntimeException e) {
            String path = LogRecord.pathIn(Arrays.copyOfRange(bytes, f.payloadAt, f.payloadAt + f.length));
            String why = "write-ahead log record " + f.seq + " in " + file.getFileName() + " does not decode: " + e.getMessage();
            gaps.add(new Gap(path, why, f.seq, f.seq));
            if (path != null) {
              seg.docs.add(path);
            }
          }
          pos = f.payloadAt + f.length;
          continue;
        }
        int next = nextGoodFrame(b, pos + 1);
        if (next < 0) {
          LOG.warn(
              "discarded a torn record at the end of log segment {} (offset {}, {} bytes): a write the"
                  + " stop interrupted, never acknowledged",
              file.getFileName(), pos, bytes.length - pos);
          break;
        }
        String path = readablePath(b, pos);
        String why = "write-ahead log segment " + file.getFileName() + " is damaged at offset " + pos
            + " (a record in the middle of the log fails its checksum)";
        gaps.add(new Gap(path, why, prevSeq + 1, b.getLong(next + 8) - 1));
        if (path != null) {
          seg.docs.add(path);
        }
        pos = next;
      }
    }
    Map<String, String> damaged = new LinkedHashMap<>();
    Map<String, Long> damagedFrom = new HashMap<>();
    String unattributed = null;
    for (Gap g : gaps) {
      if (allVoided(voids, g.from(), g.to())) {
        // A batch whose fsync failed: the disk may have dropped some of its records and kept
        // later ones. None was acknowledged, and the void record that cancels them is durable.
        LOG.warn("{}; records {} to {} there were cancelled after a failed fsync, never acknowledged", g.why(),
            g.from(), g.to());
        continue;
      }
      LOG.error(g.why() + (g.path() == null ? "; its document cannot be told" : "; it names " + g.path()));
      if (g.path() != null) {
        damaged.putIfAbsent(g.path(), g.why());
        damagedFrom.merge(g.path(), g.from(), Math::min);
      } else if (unattributed == null) {
        unattributed = g.why();
      }
    }
    Map<String, List<LogRecord.RevisionRecord>> byDoc = new HashMap<>();
    int count = 0;
    for (LogRecord.RevisionRecord r : revisions) {
      if (voided(voids, r.seq())) {
        continue;
      }
      byDoc.computeIfAbsent(r.path(), k -> new ArrayList<>()).add(r);
      count++;
    }
    return new Scan(segments, byDoc, damaged, damagedFrom, unattributed, lastSeq, count);
  }

  /** Whether every record {@code from..to} was cancelled by a void record (none, when to < from). */
  private static boolean allVoided(List<LogRecord.VoidRecord> voids, long from, long to) {
    for (long seq = from; seq <= to; seq++) {
      if (!voided(voids, seq)) {
        return false;
      }
    }
    return true;
  }

  private static boolean voided(List<LogRecord.VoidRecord> voids, long seq) {
    for (LogRecord.VoidRecord v : voids) {
      if (seq >= v.from() && seq <= v.to() && v.seq() > seq) {
        return true;
      }
    }
    return false;
  }

  private record Frame(long seq, int payloadAt, int length) {}

  /** The good frame at {@code pos}, or null. */
  private static Frame frameAt(ByteBuffer b, int pos) {
    int size = b.limit();
    if (size - pos < WriteAheadLog.FRAME_HEADER || b.getInt(pos) != WriteAheadLog.FRAME_MAGIC) {
      return null;
    }
    int length = b.getInt(pos + 4);
    if (length < 0 || length > WriteAheadLog.MAX_PAYLOAD || length > size - pos - WriteAheadLog.FRAME_HEADER) {
      return null;
    }
    long seq = b.getLong(pos + 8);
    int crc = b.getInt(pos + 16);
    int payloadAt = pos + WriteAheadLog.FRAME_HEADER;
    if (WriteAheadLog.crc(seq, b.array(), payloadAt, length) != crc) {
      return null;
    }
    return new Frame(seq, payloadAt, length);
  }

  private static int nextGoodFrame(ByteBuffer b, int from) {
    for (int p = from; p + WriteAheadLog.FRAME_HEADER <= b.limit(); p++) {
      if (b.getInt(p) == WriteAheadLog.FRAME_MAGIC && frameAt(b, p) != null) {
        return p;
      }
    }
    return -1;
  }

  /** The document a damaged frame names, when its length still makes sense. */
  private static String readablePath(ByteBuffer b, int pos) {
    if (b.limit() - pos < WriteAheadLog.FRAME_HEADER) {
      return null;
    }
    int length = b.getInt(pos + 4);
    int payloadAt = pos + WriteAheadLog.FRAME_HEADER;
    if (length <= 0 || length > b.limit() - payloadAt) {
      return null;
    }
    return LogRecord.pathIn(Arrays.copyOfRange(b.array(), payloadAt, payloadAt + Math.min(length, 4096)));
  }

  private static long firstSeqOf(Path file) {
    String name = file.getFileName().toString();
    try {
      return Long.parseUnsignedLong(name.substring(0, name.length() - WriteAheadLog.SEGMENT_SUFFIX.length()), 16);
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
