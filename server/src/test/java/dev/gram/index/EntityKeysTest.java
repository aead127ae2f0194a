package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class EntityKeysTest {
  @Test
  void keysComeInScoreOrderFromDocValuesOrFromStoredFieldsOfUnitsIndexedWithout() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      w.addDocument(unit("a.gram", "t1", true));
      w.addDocument(unit("a.gram", "t2", false)); // indexed before the doc values existed
      w.commit();
      w.addDocument(unit("b/c.gram", "d_x", true));
      w.addDocument(unit("b/c.gram", "t9", false));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        assertThat(r.leaves()).hasSize(2);
        ScoreDoc[] ranked = {new ScoreDoc(3, 4f), new ScoreDoc(0, 3f), new ScoreDoc(2, 2f), new ScoreDoc(1, 1f)};
        assertThat(RecallSearcher.entityKeys(new IndexSearcher(r), ranked))
            .containsExactly("b/c.gram#t9", "a.gram#t1", "b/c.gram#d_x", "a.gram#t2");
      }
    }
  }

  private static Document unit(String path, String eid, boolean docValues) {
    Document d = new Document();
    d.add(new StringField(Schema.PATH, path, Store.YES));
    d.add(new StringField(Schema.EID, eid, Store.YES));
    if (docValues) {
      d.add(new BinaryDocValuesField(Schema.ENTITY_KEY, new BytesRef(path + "#" + eid)));
    }
    return d;
  }
}
