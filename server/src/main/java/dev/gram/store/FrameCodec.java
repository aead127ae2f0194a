package dev.gram.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The write-ahead log's bytes (docs/gram-format.md §14.2), written by {@link SegmentSet} and read
 * by {@link LogReader} through this one codec: a segment starts with {@code GRAMWAL1}; each frame
 * is a 4-byte magic, the payload's length, the record's sequence number, a CRC-32C over sequence
 * number and payload, then the payload.
 */
final class FrameCodec {
  static final byte[] SEGMENT_HEADER = "GRAMWAL1".getBytes(StandardCharsets.US_ASCII);
  static final int FRAME_MAGIC = 0x47524C31; // "GRL1"
  static final int FRAME_HEADER = 20;
  static final int MAX_PAYLOAD = 64 << 20;

  private FrameCodec() {}

  /** A good frame found in a segment's bytes: its sequence number and where its payload is. */
  record Frame(long seq, int payloadAt, int length) {
    byte[] payload(byte[] segment) {
      return Arrays.copyOfRange(segment, payloadAt, payloadAt + length);
    }

    int end() {
      return payloadAt + length;
    }
  }

  static ByteBuffer encode(long seq, byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(FRAME_HEADER + payload.length);
    b.putInt(FRAME_MAGIC).putInt(payload.length).putLong(seq).putInt(crc(seq, payload, 0, payload.length)).put(payload);
    b.flip();
    return b;
  }

  static int crc(long seq, byte[] payload, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(ByteBuffer.allocate(8).putLong(0, seq));
    c.update(payload, off, len);
    return (int) c.getValue();
  }

  /** Whether a segment's bytes start with the header (a segment created but never written has none). */
  static boolean hasHeader(byte[] segment) {
    int n = SEGMENT_HEADER.length;
    return segment.length >= n && Arrays.equals(segment, 0, n, SEGMENT_HEADER, 0, n);
  }

  /** The good frame at {@code pos}: magic, a length that fits, a matching CRC; else null. */
  static Frame frameAt(ByteBuffer b, int pos) {
    int size = b.limit();
    if (size - pos < FRAME_HEADER || b.getInt(pos) != FRAME_MAGIC) {
      return null;
    }
    int length = b.getInt(pos + 4);
    if (length < 0 || length > MAX_PAYLOAD || length > size - pos - FRAME_HEADER) {
      return null;
    }
    long seq = b.getLong(pos + 8);
    int crc = b.getInt(pos + 16);
    int payloadAt = pos + FRAME_HEADER;
    if (crc(seq, b.array(), payloadAt, length) != crc) {
      return null;
    }
    return new Frame(seq, payloadAt, length);
  }

  /** The offset of the next good frame at or after {@code from}, or -1. */
  static int nextGoodFrame(ByteBuffer b, int from) {
    for (int p = from; p + FRAME_HEADER <= b.limit(); p++) {
      if (b.getInt(p) == FRAME_MAGIC && frameAt(b, p) != null) {
        return p;
      }
    }
    return -1;
  }

  /** The document a damaged frame at {@code pos} names, when its length still makes sense. */
  static String readablePath(ByteBuffer b, int pos) {
    if (b.limit() - pos < FRAME_HEADER) {
      return null;
    }
    int length = b.getInt(pos + 4);
    int payloadAt = pos + FRAME_HEADER;
    if (length <= 0 || length > b.limit() - payloadAt) {
      return null;
    }
    return LogRecord.pathIn(Arrays.copyOfRange(b.array(), payloadAt, payloadAt + Math.min(length, 4096)));
  }
}
