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
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
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

  /**
   * A field small enough is walked, a larger one intersected with Lucene's automaton: on random
   * dictionaries and words (typos of their terms and unrelated words, some beyond ASCII) the two
   * must find the same terms with the same weights.
   */
  @Property(tries = 200)
  void walkingTheTermsFindsWhatTheAutomatonFinds(
      @ForAll @Size(min = 1, max = 120) List<@StringLength(min = 1, max = 12) @Chars({'a', 'b', 'c', 'd', 'e', 'é', '字'}) String> terms,
      @ForAll @StringLength(min = 1, max = 12) @Chars({'a', 'b', 'c', 'd', 'e', 'é', '字'}) String word,
      @ForAll @IntRange(min = 1, max = 2) int edits) throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      for (String t : terms) {
        Document d = new Document();
        d.add(new StringField("f", t, Field.Store.NO));
        w.addDocument(d);
      }
      w.forceMerge(1);
      try (DirectoryReader r = DirectoryReader.open(w)) {
        org.apache.lucene.index.Terms dictionary = r.leaves().get(0).reader().terms("f");
        Typos.Expansion e = Typos.of(word, edits);
        java.util.Map<String, Float> walked = found(e.walk(dictionary));
        assertThat(walked).isEqualTo(found(e.intersect(dictionary)));
        assertThat(walked)
            .isEqualTo(new org.apache.lucene.search.FuzzyQuery(new org.apache.lucene.index.Term("f", word), edits, Typos.PREFIX, 50, true) {
              java.util.Map<String, Float> expected() throws java.io.IOException {
                return found(getTermsEnum(dictionary, new org.apache.lucene.util.AttributeSource()));
              }
            }.expected());
      }
    }
  }

  private static java.util.Map<String, Float> found(org.apache.lucene.index.TermsEnum te) throws java.io.IOException {
    java.util.Map<String, Float> out = new java.util.TreeMap<>();
    org.apache.lucene.search.BoostAttribute boost = te.attributes().addAttribute(org.apache.lucene.search.BoostAttribute.class);
    for (org.apache.lucene.util.BytesRef t = te.next(); t != null; t = te.next()) {
      out.put(t.utf8ToString(), boost.getBoost());
    }
    return out;
  }
}
