package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * A standing filter finds what its query finds, in every reader of the index, deletions
 * included, and keeps a segment's documents only while that segment lives.
 */
class StandingFilterTest {

  @Test
  void findsWhatItsQueryFindsAcrossReopensAndForgetsClosedSegments() throws Exception {
    TermInSetQuery query = new TermInSetQuery("w", new BytesRef("june"), new BytesRef("yesterday"));
    StandingFilter filter = new StandingFilter("says when", query);
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      for (int i = 0; i < 100; i++) {
        writer.addDocument(doc("u" + i, i % 3 == 0 ? "june" : i % 5 == 0 ? "yesterday" : "other"));
      }
      writer.commit();
      DirectoryReader first = DirectoryReader.open(writer);
      IndexSearcher s = new IndexSearcher(first);
      assertThat(s.count(filter)).isEqualTo(s.count(query)).isEqualTo(34 + 13);
      assertThat(filter.segmentsKept()).isEqualTo(1);
      assertThat(s.count(filter)).as("asked again, from what is kept").isEqualTo(47);

      // A later write: one unit deleted from the kept segment, two added in a new one.
      writer.deleteDocuments(new Term("id", "u0"));
      writer.addDocument(doc("v1", "june"));
      writer.addDocument(doc("v2", "other"));
      DirectoryReader second = DirectoryReader.openIfChanged(first, writer);
      IndexSearcher s2 = new IndexSearcher(second);
      assertThat(s2.count(filter)).isEqualTo(s2.count(query)).isEqualTo(47);
      assertThat(filter.segmentsKept()).as("the old segment's set is shared by the new reader").isEqualTo(2);

      first.close();
      second.close();
      writer.forceMerge(1);
      writer.commit();
      try (DirectoryReader merged = DirectoryReader.open(writer)) {
        assertThat(new IndexSearcher(merged).count(filter)).isEqualTo(47);
        assertThat(filter.segmentsKept()).as("merged away segments are forgotten").isEqualTo(1);
      }
    }
  }

  private static Document doc(String id, String word) {
    Document d = new Document();
    d.add(new StringField("id", id, Field.Store.NO));
    d.add(new StringField("w", word, Field.Store.NO));
    return d;
  }
}
