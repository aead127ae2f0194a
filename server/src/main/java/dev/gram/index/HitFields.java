package dev.gram.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * What a hit shows of a unit, kept in one doc values field ({@link Schema#HIT}) rather than in
 * stored fields: reading a stored field decompresses the block it sits in, one block per hit of a
 * page (profiled: a sixth of a keyword recall on 3,000 turns), while doc values are read in place.
 *
 * <p>The value is the fields in order, each a {@link ByteArrayDataOutput#writeString string}
 * (a vInt length and UTF-8); status and context, which a unit may lack, follow a flags byte.
 *
 * @param status null when the unit has none
 * @param context a section's heading path; null for a record
 */
record HitFields(String path, String entityId, String type, String title, String status, String context) {
  private static final int HAS_STATUS = 1;
  private static final int HAS_CONTEXT = 2;

  BytesRef encode() {
    byte[] buf = new byte[16 + 4 * (path.length() + entityId.length() + type.length() + title.length()
        + (status == null ? 0 : status.length()) + (context == null ? 0 : context.length()))];
    ByteArrayDataOutput out = new ByteArrayDataOutput(buf);
    try {
      out.writeByte((byte) ((status != null ? HAS_STATUS : 0) | (context != null ? HAS_CONTEXT : 0)));
      out.writeString(path);
      out.writeString(entityId);
      out.writeString(type);
      out.writeString(title);
      if (status != null) {
        out.writeString(status);
      }
      if (context != null) {
        out.writeString(context);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return new BytesRef(buf, 0, out.getPosition());
  }

  static HitFields decode(BytesRef value) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(value.bytes, value.offset, value.length);
    int flags = in.readByte();
    String path = in.readString();
    String eid = in.readString();
    String type = in.readString();
    String title = in.readString();
    String status = (flags & HAS_STATUS) != 0 ? in.readString() : null;
    String context = (flags & HAS_CONTEXT) != 0 ? in.readString() : null;
    return new HitFields(path, eid, type, title, status, context);
  }

  /**
   * The hit fields of each of {@code docs} (top-level document numbers), in their order.
   */
  static HitFields[] of(IndexSearcher s, int[] docs) throws IOException {
    HitFields[] out = new HitFields[docs.length];
    BinaryValues.visit(s, docs, Schema.HIT, (i, doc, value) -> {
      if (value == null) {
        throw new IllegalStateException("unit " + doc + " has no " + Schema.HIT + " value");
      }
      out[i] = decode(value);
    });
    return out;
  }
}
