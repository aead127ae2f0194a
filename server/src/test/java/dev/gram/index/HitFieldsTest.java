package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class HitFieldsTest {
  @Test
  void aValueReadsBackAsWrittenWithOrWithoutStatusAndContext() throws Exception {
    HitFields full = new HitFields("proj/ü n.gram", "t_1", "task", "Ship the “release” — ok", "doing", "Plan > Week 1");
    HitFields bare = new HitFields("a.gram", "e2", "event", "", null, null);
    HitFields onlyContext = new HitFields("a.gram", "s3", "section", "A", null, "Notes");
    for (HitFields h : new HitFields[] {full, bare, onlyContext}) {
      assertThat(HitFields.decode(h.encode())).isEqualTo(h);
    }
  }

  @Test
  void aPageIsReadInItsOwnOrderAcrossSegments() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      w.addDocument(unit("a.gram", "t1"));
      w.addDocument(unit("a.gram", "t2"));
      w.commit();
      w.addDocument(unit("b.gram", "t3"));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        assertThat(r.leaves()).hasSize(2);
        HitFields[] page = HitFields.of(new IndexSearcher(r), new int[] {2, 0, 1});
        assertThat(page).extracting(HitFields::entityId).containsExactly("t3", "t1", "t2");
        assertThat(page[0].path()).isEqualTo("b.gram");
      }
    }
  }

  private static Document unit(String path, String eid) {
    Document d = new Document();
    d.add(new BinaryDocValuesField(Schema.HIT, new HitFields(path, eid, "task", "Title " + eid, null, null).encode()));
    return d;
  }
}
