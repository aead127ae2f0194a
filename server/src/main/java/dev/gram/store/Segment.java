package dev.gram.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One file of the write-ahead log, named by the sequence number of the record it was created for
 * (16 hex digits, {@code .wal}); {@code docs} are the documents with records in it. The mutable
 * fields belong to {@link SegmentSet} (under its append lock) while the segment is written, and to
 * the checkpointer once it is retired.
 */
final class Segment {
  private static final Logger LOG = LoggerFactory.getLogger(Segment.class);
  static final String SUFFIX = ".wal";

  final Path file;
  final long firstSeq;
  final Set<String> docs = ConcurrentHashMap.newKeySet();
  FileChannel channel;
  long size;
  int records;
  /** The sequence number of the last record appended to it. */
  long lastSeq;
  /**
   * It holds void records: they cancel records of older segments, so it may be deleted only
   * once no older segment is left (else the cancelled records would come back at replay).
   */
  volatile boolean holdsVoids;
  volatile boolean deleted;

  Segment(Path file, long firstSeq) {
    this.file = file;
    this.firstSeq = firstSeq;
  }

  /**
   * Creates the segment for record {@code firstSeq}: its header synced, and its name, since a
   * record in it is acknowledged only once both would survive a power cut.
   */
  static Segment create(Path dir, long firstSeq) throws IOException {
    Path file = dir.resolve(String.format("%016x", firstSeq) + SUFFIX);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ch.write(ByteBuffer.wrap(FrameCodec.SEGMENT_HEADER), 0);
      ch.force(true);
      DurableFiles.syncFolder(dir);
    } catch (IOException e) {
      ch.close();
      Files.deleteIfExists(file);
      throw e;
    }
    Segment s = new Segment(file, firstSeq);
    s.channel = ch;
    s.size = FrameCodec.SEGMENT_HEADER.length;
    return s;
  }

  /** The segment files in a log folder, oldest first. */
  static List<Path> files(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (var s = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path p : s) {
        out.add(p);
      }
    }
    out.sort(null); // fixed-width hex names: name order is sequence order
    return out;
  }

  /** The sequence number a segment file is named after (0 for a name that is not one). */
  static long firstSeqOf(Path file) {
    String name = file.getFileName().toString();
    try {
      return Long.parseUnsignedLong(name.substring(0, name.length() - SUFFIX.length()), 16);
    } catch (RuntimeException e) {
      return 0;
    }
  }

  void closeQuietly() {
    FileChannel ch = channel;
    if (ch != null && ch.isOpen()) {
      try {
        ch.close();
      } catch (IOException e) {
        LOG.debug("closing {}: {}", this, e.toString());
      }
    }
  }

  @Override
  public String toString() {
    return file.getFileName().toString();
  }
}
