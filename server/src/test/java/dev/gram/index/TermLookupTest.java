package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class TermLookupTest {
  @Test
  void statisticsAndHitsAreThoseOfLuceneOwnLookupAcrossSegmentsAndMissingFields() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      w.addDocument(doc("text", "apple banana apple"));
      w.addDocument(doc("title", "banana"));
      w.commit();
      w.addDocument(doc("text", "cherry banana"));
      w.commit();
      w.addDocument(doc("title", "apple"));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        assertThat(r.leaves()).hasSize(3);
        IndexSearcher s = new IndexSearcher(r);
        TermLookup lookup = new TermLookup(s);
        // Out of order, repeated, absent terms and an absent field: one enum serves them all.
        for (String[] ft : new String[][] {{"text", "cherry"}, {"text", "apple"}, {"title", "apple"}, {"text", "banana"},
            {"text", "zebra"}, {"near", "apple"}, {"text", "apple"}, {"title", "banana"}}) {
          Term t = new Term(ft[0], ft[1]);
          TermStates mine = lookup.states(t);
          TermStates lucene = TermStates.build(s, t, true);
          assertThat(mine.docFreq()).as(t.toString()).isEqualTo(lucene.docFreq());
          assertThat(mine.totalTermFreq()).as(t.toString()).isEqualTo(lucene.totalTermFreq());
          assertThat(s.count(new TermQuery(t, mine))).as(t.toString()).isEqualTo(s.count(new TermQuery(t)));
          assertThat(s.search(new TermQuery(t, mine), 10).scoreDocs).usingRecursiveFieldByFieldElementComparator()
              .isEqualTo(s.search(new TermQuery(t), 10).scoreDocs);
        }
      }
    }
  }

  private static Document doc(String field, String text) {
    Document d = new Document();
    d.add(new TextField(field, text, Store.NO));
    return d;
  }
}
