package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * A keyword recall's query is searched as built, its leaves rewritten once (typo expansions,
 * phrases, the names' term set): it must find the same units with the same scores as Lucene's
 * own rewrite of the whole tree.
 */
class PreparedQueryTest {
  private static final String[][] UNITS = {
    // title, text, near, owner
    {"Maria: I started learning the violin", "Maria: I started learning the violin last month, it is hard.", "Tim: Nice!", "Maria"},
    {"Tim: The support meeting helped", "Tim: The anxiety support meeting helped me a lot last Saturday.", "Maria: Glad to hear", "Tim"},
    {"Maria: We ran the 10K race", "Maria: We ran the 10K race in the rain and finished together.", "Tim: Well done", "Maria"},
    {"Tim: Reading The Midnight Library", "Tim: I finished reading The Midnight Library yesterday.", "Maria: Loved it", "Tim"},
    {"Budget review", "The budget review moved to Friday; migration of the database waits.", "", ""},
    {"Database migration", "Migrate the database before the release; the budget is fixed.", "", ""},
  };

  @Test
  void scoresAsLuceneRewritingTheWholeTree() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(Analyzers.forIndex()))) {
      for (int i = 0; i < UNITS.length; i++) {
        String[] u = UNITS[i];
        Document d = new Document();
        d.add(new TextField(Schema.TITLE, u[0], Field.Store.NO));
        d.add(new TextField(Schema.TEXT, u[1], Field.Store.NO));
        d.add(new TextField(Schema.NEAR, u[2], Field.Store.NO));
        d.add(new TextField(Schema.DTITLE, "Conversation " + (i % 2), Field.Store.NO));
        if (!u[3].isEmpty()) {
          d.add(new StringField(Schema.WHO, u[3].toLowerCase(java.util.Locale.ROOT), Field.Store.NO));
        }
        w.addDocument(d);
        if (i == 2) {
          w.commit(); // two segments
        }
      }
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(r);
        String[] queries = {
          "What instrument is Maria learning to play?", // a name, an unknown word (instrument)
          "When did Tim go to the anxiety support meeting?", // when, a phrase
          "violni", // a typo
          "budget review", // a short query: every word first
          "databse migraton", // typos in a short query
          "Midnight Library", // a phrase in a title
          "zebra unicorn", // nothing
        };
        for (String q : queries) {
          Queries.Keyword k = Queries.keyword(Queries.Parsed.of(q), s);
          for (Query built : new Query[] {k.allWords(), k.anyWord()}) {
            if (!(built instanceof PreparedQuery prepared)) {
              continue;
            }
            TopDocs mine = s.search(prepared, 10);
            TopDocs lucene = s.search(prepared.query(), 10);
            assertThat(mine.scoreDocs).as(q).hasSameSizeAs(lucene.scoreDocs);
            for (int i = 0; i < mine.scoreDocs.length; i++) {
              assertThat(mine.scoreDocs[i].doc).as(q + " #" + i).isEqualTo(lucene.scoreDocs[i].doc);
              assertThat(mine.scoreDocs[i].score).as(q + " #" + i).isCloseTo(lucene.scoreDocs[i].score, within(1e-4f));
            }
          }
        }
        assertThat(s.search(Queries.keyword(Queries.Parsed.of("violni"), s).anyWord(), 10).scoreDocs).isNotEmpty();
        assertThat(s.search(Queries.keyword(Queries.Parsed.of("When did Tim go to the anxiety support meeting?"), s).anyWord(), 1)
            .scoreDocs[0].doc).isEqualTo(1);
      }
    }
  }
}
