package dev.gram.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
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
   * The hit fields of each of {@code docs} (top-level document numbers), read in document order,
   * as a doc values iterator only moves forward.
   */
  static HitFields[] of(IndexSearcher s, int[] docs) throws IOException {
    Integer[] order = new Integer[docs.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> docs[i]));
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    HitFields[] out = new HitFields[docs.length];
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (int i : order) {
      int doc = docs[i];
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getBinaryDocValues(Schema.HIT);
      }
      if (values == null || !values.advanceExact(doc - leaf.docBase)) {
        throw new IllegalStateException("unit " + doc + " has no " + Schema.HIT + " value");
      }
      out[i] = decode(values.binaryValue());
    }
    return out;
  }
}
