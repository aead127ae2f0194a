package dev.gram.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;

/**
 * Reads a binary doc values field of some top-level documents, given in any order (a ranking), by
 * visiting them in document order: a doc values iterator only moves forward.
 */
final class BinaryValues {
  private BinaryValues() {}

  /** Called once per document; {@code value} is null when the document has none, valid only during the call. */
  interface Visitor {
    void visit(int index, int doc, BytesRef value) throws IOException;
  }

  /** Visits each of {@code docs} ({@code index} is its position in {@code docs}) in document order. */
  static void visit(IndexSearcher s, int[] docs, String field, Visitor visitor) throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (int i : inDocOrder(docs)) {
      int doc = docs[i];
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getBinaryDocValues(field);
      }
      boolean has = values != null && values.advanceExact(doc - leaf.docBase);
      visitor.visit(i, doc, has ? values.binaryValue() : null);
    }
  }

  /**
   * The positions of {@code docs} in document order: iterators over a segment only move forward,
   * so a ranking's documents are visited in this order ({@link UnitMatches} too).
   */
  static Integer[] inDocOrder(int[] docs) {
    Integer[] order = new Integer[docs.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> docs[i]));
    return order;
  }
}
