package dev.gram.index;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;

/**
 * The term statistics of one recall's keyword query, looked up through one {@link TermsEnum} per
 * field and segment, reused for every word. {@link TermStates#build} opens a new enum per term and
 * segment and hands each segment to the searcher's task executor; a ten-word question looks up
 * about a hundred terms, and that overhead was a fifth of a keyword recall (profiled on 10,000
 * records). Not thread-safe: one recall, one thread.
 */
final class TermLookup {
  private final IndexReaderContext top;
  private final List<LeafReaderContext> leaves;
  private final Map<String, TermsEnum[]> enums = new HashMap<>();

  TermLookup(IndexSearcher searcher) {
    this.top = searcher.getTopReaderContext();
    this.leaves = top.leaves();
  }

  /** The statistics of {@code term} in every segment, for a {@code TermQuery} of this searcher. */
  TermStates states(Term term) throws IOException {
    TermsEnum[] perLeaf = enums.get(term.field());
    if (perLeaf == null) {
      perLeaf = new TermsEnum[leaves.size()];
      for (LeafReaderContext leaf : leaves) {
        Terms terms = leaf.reader().terms(term.field());
        perLeaf[leaf.ord] = terms == null ? null : terms.iterator();
      }
      enums.put(term.field(), perLeaf);
    }
    TermStates states = new TermStates(top);
    for (LeafReaderContext leaf : leaves) {
      TermsEnum te = perLeaf[leaf.ord];
      if (te != null && te.seekExact(term.bytes())) {
        states.register(te.termState(), leaf.ord, te.docFreq(), te.totalTermFreq());
      }
    }
    return states;
  }
}
