package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class TyposTest {
  @Test
  void distanceCountsASwapOfNeighboursAsOneEdit() {
    assertThat(Typos.distance("migration".codePoints().toArray(), "migraiton".codePoints().toArray())).isEqualTo(1);
    assertThat(Typos.distance("budget".codePoints().toArray(), "budgte".codePoints().toArray())).isEqualTo(1);
    assertThat(Typos.distance("kitten".codePoints().toArray(), "sitting".codePoints().toArray())).isEqualTo(3);
    assertThat(Typos.closeness("budget", "budgets")).isEqualTo(1f - 1f / 6);
  }

  @Test
  void expandsAcrossSegmentsClosestFirstAndKeepsTheFirstLetter() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      for (String t : new String[] {"migration", "migrations", "nigration", "integration"}) {
        Document d = new Document();
        d.add(new StringField("f", t, Field.Store.YES));
        w.addDocument(d);
        w.commit(); // one segment each: the expansion must merge them
      }
      try (DirectoryReader r = DirectoryReader.open(w)) {
        Query q = Typos.of("migraiton", 2).query("f", 1f);
        TopDocs top = new IndexSearcher(r).search(q, 10);
        // migration (1 edit) and migrations (2 edits) match; nigration changes the first letter,
        // integration is too far.
        assertThat(top.scoreDocs).hasSize(2);
        assertThat(new IndexSearcher(r).storedFields().document(top.scoreDocs[0].doc).get("f")).isEqualTo("migration");
        assertThat(new IndexSearcher(r).count(Typos.of("zzzzzz", 1).query("f", 1f))).isZero();
        assertThat(Typos.of("migraiton", 2)).isSameAs(Typos.of("migraiton", 2));
      }
    }
  }
}
