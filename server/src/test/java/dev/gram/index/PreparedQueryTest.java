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

  private static final String[] QUERIES = {
    "What instrument is Maria learning to play?", // a name, an unknown word (instrument)
    "When did Tim go to the anxiety support meeting?", // when, a phrase
    "violni", // a typo
    "budget review", // a short query: every word first
    "databse migraton", // typos in a short query
    "Midnight Library", // a phrase in a title
    "zebra unicorn", // nothing
  };

  private static void addUnits(IndexWriter w) throws java.io.IOException {
    for (int i = 0; i < UNITS.length; i++) {
      String[] u = UNITS[i];
      w.addDocument(unit(u[0], u[1], u[2], u[3], "Conversation " + (i % 2)));
      if (i == 2) {
        w.commit(); // two segments
      }
    }
  }

  private static Document unit(String title, String text, String near, String owner, String docTitle) {
    Document d = new Document();
    d.add(new TextField(Schema.TITLE, title, Field.Store.NO));
    d.add(new TextField(Schema.TEXT, text, Field.Store.NO));
    d.add(new TextField(Schema.NEAR, near, Field.Store.NO));
    d.add(new TextField(Schema.DTITLE, docTitle, Field.Store.NO));
    if (!owner.isEmpty()) {
      d.add(new StringField(Schema.WHO, owner.toLowerCase(java.util.Locale.ROOT), Field.Store.NO));
    }
    return d;
  }

  /**
   * Words' clauses kept from earlier questions score as built afresh, and a new reader (a unit
   * added in a new segment) gets clauses of its own: the kept ones say no unit has "cello".
   */
  @Test
  void keptWordsScoreAsBuiltAfresh() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(Analyzers.forIndex()))) {
      addUnits(w);
      WordClauses kept = new WordClauses();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(r);
        Object key = r.getReaderCacheHelper().getKey();
        for (int pass = 0; pass < 2; pass++) {
          for (String q : QUERIES) {
            sameHits(q, s, Queries.keyword(Queries.Parsed.of(q), s, kept, key), Queries.keyword(Queries.Parsed.of(q), s));
          }
          String cello = "Who learns the cello?";
          sameHits(cello, s, Queries.keyword(Queries.Parsed.of(cello), s, kept, key), Queries.keyword(Queries.Parsed.of(cello), s));
        }
        assertThat(kept.get(key, Queries.words("violni").get(0))).as("a typo's expansion is kept").isNotNull();
      }
      w.addDocument(unit("Ana: My cello teacher", "Ana: My cello teacher moved away.", "", "Ana", "Conversation 2"));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(r);
        String q = "Who learns the cello?";
        Queries.Keyword fresh = Queries.keyword(Queries.Parsed.of(q), s);
        assertThat(s.search(fresh.anyWord(), 10).scoreDocs).as("the new unit is found afresh")
            .anyMatch(d -> d.doc == UNITS.length);
        sameHits(q, s, Queries.keyword(Queries.Parsed.of(q), s, kept, r.getReaderCacheHelper().getKey()), fresh);
      }
    }
  }

  /**
   * What is kept is bounded by term states (terms times segments), the words asked longest ago
   * going first, and a reader of more segments keeps fewer words.
   */
  @Test
  void keptWordsStayWithinTheirBudget() {
    WordClauses kept = new WordClauses(12);
    Object one = new Object();
    for (String w : new String[] {"alpha", "beta", "gamma"}) {
      kept.put(one, 1, Queries.words(w).get(0), clauses(w, 4)); // 4 terms, one segment
    }
    assertThat(kept.size()).isEqualTo(3);
    kept.get(one, Queries.words("alpha").get(0)); // asked again: now the most recent
    kept.put(one, 1, Queries.words("delta").get(0), clauses("delta", 4));
    assertThat(kept.get(one, Queries.words("beta").get(0))).as("the word asked longest ago goes").isNull();
    assertThat(kept.get(one, Queries.words("alpha").get(0))).isNotNull();
    assertThat(kept.size()).isEqualTo(3);
    Object three = new Object();
    for (String w : new String[] {"alpha", "beta", "gamma"}) {
      kept.put(three, 3, Queries.words(w).get(0), clauses(w, 2)); // 2 terms, three segments
    }
    assertThat(kept.get(one, Queries.words("alpha").get(0))).as("another reader's words are gone").isNull();
    assertThat(kept.size()).as("6 states a word: two fit in 12").isEqualTo(2);
    assertThat(WordClauses.terms(clauses("x", 5).query())).isEqualTo(5);
  }

  private static WordClauses.Clauses clauses(String word, int terms) {
    org.apache.lucene.search.BooleanQuery.Builder b = new org.apache.lucene.search.BooleanQuery.Builder();
    for (int i = 0; i < terms; i++) {
      b.add(new org.apache.lucene.search.TermQuery(new org.apache.lucene.index.Term("f" + i, word)),
          org.apache.lucene.search.BooleanClause.Occur.SHOULD);
    }
    return new WordClauses.Clauses(b.build(), new boolean[3], null);
  }

  private static void sameHits(String q, IndexSearcher s, Queries.Keyword kept, Queries.Keyword fresh) throws Exception {
    Query[] a = {kept.allWords(), kept.anyWord()};
    Query[] b = {fresh.allWords(), fresh.anyWord()};
    for (int k = 0; k < 2; k++) {
      assertThat(a[k] == null).as(q).isEqualTo(b[k] == null);
      if (a[k] == null) {
        continue;
      }
      TopDocs x = s.search(a[k], 10);
      TopDocs y = s.search(b[k], 10);
      assertThat(x.scoreDocs).as(q).hasSameSizeAs(y.scoreDocs);
      for (int i = 0; i < x.scoreDocs.length; i++) {
        assertThat(x.scoreDocs[i].doc).as(q + " #" + i).isEqualTo(y.scoreDocs[i].doc);
        assertThat(x.scoreDocs[i].score).as(q + " #" + i).isEqualTo(y.scoreDocs[i].score);
      }
    }
  }

  @Test
  void scoresAsLuceneRewritingTheWholeTree() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(Analyzers.forIndex()))) {
      addUnits(w);
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(r);
        for (String q : QUERIES) {
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

  /** A question's words score one by one; a few words that are not a question also as a phrase. */
  @Test
  void onlyAQueryThatIsNoQuestionScoresAsAPhrase() throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(Analyzers.forIndex()))) {
      addUnits(w);
      try (DirectoryReader r = DirectoryReader.open(w)) {
        IndexSearcher s = new IndexSearcher(r);
        assertThat(phrases(Queries.keyword(Queries.Parsed.of("Which support meeting helped Tim?"), s)))
            .isZero();
        assertThat(phrases(Queries.keyword(Queries.Parsed.of("anxiety support meeting"), s))).isPositive();
      }
    }
  }

  private static int phrases(Queries.Keyword k) {
    int[] n = {0};
    k.anyWord().visit(new org.apache.lucene.search.QueryVisitor() {
      @Override
      public void consumeTerms(Query query, org.apache.lucene.index.Term... terms) {
        n[0] += query instanceof org.apache.lucene.search.PhraseQuery ? 1 : 0;
      }

      @Override
      public org.apache.lucene.search.QueryVisitor getSubVisitor(org.apache.lucene.search.BooleanClause.Occur occur,
          Query parent) {
        return this;
      }
    });
    return n[0];
  }
}
