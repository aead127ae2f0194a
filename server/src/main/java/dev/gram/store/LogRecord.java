package dev.gram.store;

import dev.gram.format.GramParser;
import dev.gram.format.HistoryCodec;
import dev.gram.format.Revision;
import dev.gram.format.Values;
import java.nio.charset.StandardCharsets;

/**
 * One record of the write-ahead log, as its payload says it (the frame around it is {@link
 * WriteAheadLog}'s business). Payloads are UTF-8 text, one header line and then the body:
 *
 * <ul>
 *   <li>{@code rev <path>} then one history entry exactly as a {@code .gram} file stores it
 *       ({@code @rev} … {@code chain}): a revision of the document at that agent-visible path.
 *   <li>{@code void <from> <to>}: the records with sequence numbers {@code from} through {@code
 *       to} were never acknowledged (their fsync failed) and must not be replayed.
 * </ul>
 */
sealed interface LogRecord {
  long seq();

  record RevisionRecord(long seq, String path, Revision revision) implements LogRecord {}

  record VoidRecord(long seq, long from, long to) implements LogRecord {}

  static byte[] revisionPayload(String path, Revision r) {
    return HistoryCodec.fileEntryAfter(("rev " + Values.encode(path) + "\n").getBytes(StandardCharsets.UTF_8), r);
  }

  static byte[] voidPayload(long from, long to) {
    return ("void " + from + " " + to + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads a payload whose frame checked out.
   *
   * @throws IllegalArgumentException when it is not a record this version writes
   */
  static LogRecord decode(long seq, byte[] payload) {
    String text = new String(payload, StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    if (nl < 0) {
      throw new IllegalArgumentException("record " + seq + " has no header line");
    }
    String head = text.substring(0, nl);
    if (head.startsWith("rev ")) {
      String path = Values.decode(head.substring(4));
      return new RevisionRecord(seq, path, GramParser.parseRevision(text.substring(nl + 1)));
    }
    if (head.startsWith("void ")) {
      String[] p = head.split(" ");
      if (p.length == 3) {
        return new VoidRecord(seq, Long.parseLong(p[1]), Long.parseLong(p[2]));
      }
    }
    throw new IllegalArgumentException("record " + seq + " has an unknown header: " + head);
  }

  /** The document a payload names, read as far as it can be, for a record whose frame is bad. */
  static String pathIn(byte[] payload) {
    String text = new String(payload, StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    if (text.startsWith("rev ") && nl > 4) {
      try {
        return Values.decode(text.substring(4, nl));
      } catch (RuntimeException e) {
        return null;
      }
    }
    return null;
  }
}
