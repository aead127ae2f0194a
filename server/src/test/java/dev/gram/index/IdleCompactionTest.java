package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * A quiet index has its small segments merged into one, everything still found; a segment above
 * the threshold is left to the tiered policy; an index that keeps changing is not compacted.
 */
class IdleCompactionTest {
  @Test
  void aQuietIndexMergesItsSmallSegmentsIntoOne() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = writer(dir, IdleCompaction.SMALL_BYTES)) {
      addInBatches(w, 6, 20);
      assertThat(committedSegments(dir)).isEqualTo(6);
      IdleCompaction c = new IdleCompaction(w);
      c.tick(); // the first look only notes where the writer is
      c.tick();
      w.commit();
      assertThat(committedSegments(dir)).isEqualTo(1);
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        assertThat(r.numDocs()).isEqualTo(120);
        assertThat(new IndexSearcher(r).count(new TermQuery(new Term("text", "word5")))).isEqualTo(6);
      }
    }
  }

  @Test
  void anIndexThatKeepsChangingIsNotCompacted() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = writer(dir, IdleCompaction.SMALL_BYTES)) {
      IdleCompaction c = new IdleCompaction(w);
      for (int i = 0; i < 4; i++) {
        addInBatches(w, 1, 10);
        c.tick();
      }
      assertThat(committedSegments(dir)).isEqualTo(4);
    }
  }

  @Test
  void segmentsAboveTheThresholdAreLeftAlone() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      long small;
      try (IndexWriter w = writer(dir, Long.MAX_VALUE)) {
        addInBatches(w, 1, 2_000); // one large segment
        addInBatches(w, 3, 5);
        small = 0;
        try (DirectoryReader r = DirectoryReader.open(w)) {
          for (LeafReaderContext leaf : r.leaves()) {
            long size = ((SegmentReader) leaf.reader()).getSegmentInfo().sizeInBytes();
            small = leaf.reader().maxDoc() == 2_000 ? small : Math.max(small, size);
          }
        }
      }
      try (IndexWriter w = writer(dir, small + 1)) {
        IdleCompaction c = new IdleCompaction(w);
        c.tick();
        c.tick();
        w.commit();
        try (DirectoryReader r = DirectoryReader.open(dir)) {
          assertThat(r.leaves()).hasSize(2);
          assertThat(r.leaves()).anySatisfy(l -> assertThat(l.reader().maxDoc()).isEqualTo(2_000));
          assertThat(r.numDocs()).isEqualTo(2_015);
        }
      }
    }
  }

  /** Merges run on the thread that asks for them here, so a test sees their result at once. */
  private static IndexWriter writer(ByteBuffersDirectory dir, long smallBytes) throws IOException {
    TieredMergePolicy tiered = new TieredMergePolicy();
    tiered.setSegmentsPerTier(100); // no merges of its own in these small tests
    IndexWriterConfig cfg = new IndexWriterConfig()
        .setMergeScheduler(new SerialMergeScheduler())
        .setMergePolicy(new IdleCompaction.SmallSegmentsMerge(tiered, smallBytes));
    return new IndexWriter(dir, cfg);
  }

  private static void addInBatches(IndexWriter w, int batches, int perBatch) throws IOException {
    for (int b = 0; b < batches; b++) {
      for (int i = 0; i < perBatch; i++) {
        Document d = new Document();
        d.add(new StringField("id", b + "-" + i + "-" + System.nanoTime(), Field.Store.NO));
        d.add(new TextField("text", "word" + i + " batch" + b, Field.Store.NO));
        w.addDocument(d);
      }
      w.commit(); // one segment per batch
    }
  }

  /**
   * Counted from the last commit: a reader opened from the writer would flush it, which counts as
   * a change and would keep the index from looking quiet.
   */
  private static int committedSegments(ByteBuffersDirectory dir) throws IOException {
    try (DirectoryReader r = DirectoryReader.open(dir)) {
      return r.leaves().size();
    }
  }
}
