package dev.gram.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * The paths of an index that have at least one live unit without a vector: what the embedder
 * picks up when its model is ready. Read from the postings alone (the units marked
 * {@code EMBEDDED:0}, then each path's units): reading each such unit's stored path instead
 * decompressed a block of stored fields per unit, a third of a second of CPU at 10,000 units,
 * taken at the moment the model is ready (often a sidecar's first queries).
 */
final class UnembeddedPaths {
  private UnembeddedPaths() {}

  static List<String> in(IndexReader reader) throws IOException {
    Set<String> seen = new LinkedHashSet<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      LeafReader r = leaf.reader();
      PostingsEnum unembedded = r.postings(new Term(Schema.EMBEDDED, "0"), PostingsEnum.NONE);
      Terms paths = r.terms(Schema.PATH);
      if (unembedded == null || paths == null) {
        continue;
      }
      Bits live = r.getLiveDocs();
      FixedBitSet lacking = new FixedBitSet(r.maxDoc());
      for (int doc = unembedded.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = unembedded.nextDoc()) {
        if (live == null || live.get(doc)) {
          lacking.set(doc);
        }
      }
      TermsEnum te = paths.iterator();
      PostingsEnum units = null;
      for (BytesRef path = te.next(); path != null; path = te.next()) {
        units = te.postings(units, PostingsEnum.NONE);
        for (int doc = units.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = units.nextDoc()) {
          if (lacking.get(doc)) {
            seen.add(path.utf8ToString());
            break;
          }
        }
      }
    }
    return new ArrayList<>(seen);
  }
}
