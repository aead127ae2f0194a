package dev.gram.index;

import dev.gram.base.DateSpan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.KeywordAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.document.LongRange;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Builds the Lucene queries of the lexical modes, of the dates in queries ({@link QueryDates}), and
 * of the filters.
 *
 * <p>Boosts put a match in a record's title (3) above one in a section's heading path (2), the
 * document title (1.5), body text (1) and the text of a record's neighbours (0.5); an id written
 * in the query (4) above all. In keyword
 * mode a word as written scores its stem too, so exact words outrank other forms; a word found
 * nowhere in the index is looked up by edit distance (one edit up to six letters, two beyond), so
 * a typo still finds what was meant; several words also score as a loose phrase. The keyword
 * queries are built for one searcher, their leaves rewritten by it, and handed to Lucene as a
 * {@link PreparedQuery}.
 *
 * <p>Why one class of about 480 lines: every lexical query the index runs, with its boosts, is
 * built here and nowhere else, so how a word scores can be read and tuned in one place (as the
 * fields are in {@link DocMapper}).
 */
final class Queries {
  private Queries() {}

  static final float ID_BOOST = 4f;
  static final float TITLE_BOOST = 3f;
  static final float HEADING_BOOST = 2f;
  static final float DOC_TITLE_BOOST = 1.5f;
  static final float TEXT_BOOST = 1f;
  /** A stem matches every form of a word; the form as written is worth more. */
  static final float STEM_WEIGHT = 0.5f;
  static final float FUZZY_WEIGHT = 0.6f;
  /** A record whose date meets a date written in a query. */
  static final float DATE_BOOST = 3f;
  /** A record owned by a person the query names. */
  static final float OWNER_BOOST = 1f;
  /**
   * A person's name in a query, as a word to find in text: names recur in every turn of a
   * conversation, so they count for less than other words (and boost the person's own records).
   */
  static final float NAME_WEIGHT = 0.5f;
  /** A record with a date, when the query asks "when". */
  static final float WHEN_BOOST = 0.5f;

  /** Units with a date of their own ({@code at}, or their type's first date field). */
  static final Query DATED = new StandingFilter("dated units",
      LongRange.newIntersectsQuery(Schema.DATE_DEFAULT, new long[] {Long.MIN_VALUE}, new long[] {Long.MAX_VALUE}));
  /** What a word's other fields add to its best one. */
  static final float FIELD_TIE = 0.1f;
  /**
   * A word found in a record's neighbours ({@link DocUnits#near}): half a word of its own text.
   * Measured on two generated conversation corpora at 0, 0.15, 0.3, 0.5 and 0.8 (docs/recall.md):
   * 0.3 to 0.8 all helped, the labelled corpus did not move; the middle was kept.
   */
  static final float NEAR_BOOST = 0.5f;
  /** A document found by its title alone, when its body has no text: below the records it holds. */
  static final float BARE_TITLE_BOOST = 0.5f;

  private static final Analyzer KEYWORD = Analyzers.keyword();
  private static final Analyzer KEYWORD_QUERY = Analyzers.keywordQuery();
  private static final Analyzer EXACT = Analyzers.exact();

  /** A word of the query as written and its stem (null when the stem is the word). */
  record Word(String term, String stem, int position) {}

  /** Keyword analysis of a query: one {@link Word} per position, stop words left out. */
  static List<Word> words(String text) {
    List<Word> w = analyze(KEYWORD_QUERY, text);
    return w.isEmpty() ? analyze(KEYWORD, text) : w;
  }

  private static List<Word> analyze(Analyzer a, String text) {
    List<Word> out = new ArrayList<>();
    try (TokenStream ts = a.tokenStream(Schema.TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      KeywordAttribute kw = ts.addAttribute(KeywordAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      int pos = -1;
      String orig = null;
      String stem = null;
      while (ts.incrementToken()) {
        if (inc.getPositionIncrement() > 0) {
          if (orig != null) {
            out.add(new Word(orig, stem, pos));
          }
          pos += inc.getPositionIncrement();
          orig = null;
          stem = null;
        }
        if (kw.isKeyword()) {
          orig = term.toString();
        } else if (orig == null) {
          orig = term.toString();
        } else {
          stem = term.toString();
        }
      }
      if (orig != null) {
        out.add(new Word(orig, stem, pos));
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * A query analysed once per recall: its dates, its keyword words, its exact terms, and what it
   * asks. Auto mode, the keyword queries and the boosts all read this; none analyses the text again.
   *
   * @param question asked as a sentence (a question mark, or a question word and three words)
   * @param asksWhen a "when …" question, which favours records that have a date
   */
  record Parsed(String raw, QueryDates dates, List<Word> words, List<String> exact, boolean question, boolean asksWhen) {
    static Parsed of(String query) {
      QueryDates d = QueryDates.of(query);
      String q = query.strip();
      String first = firstWord(q);
      return new Parsed(query, d, Queries.words(d.rest()), exactTerms(d.rest()), AutoMode.isQuestion(q),
          first.equals("when") || ASKS_DATE.matcher(q).lookingAt());
    }

    /** A sentence, not a few words: scored by BM25 over its words, never all-words-first. */
    boolean sentence() {
      return question || words.size() > SHORT_QUERY_WORDS;
    }

    private static final Pattern ASKS_DATE =
        Pattern.compile("(what|which) (date|day|month|year)\\b", Pattern.CASE_INSENSITIVE);

    private static String firstWord(String q) {
      int end = 0;
      while (end < q.length() && Character.isLetter(q.charAt(end))) {
        end++;
      }
      return q.substring(0, end).toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Words up to which a query that is not a question must first be matched whole. */
  static final int SHORT_QUERY_WORDS = 3;

  /** Exact analysis: the lowercase words of a text, in order. */
  static List<String> exactTerms(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = EXACT.tokenStream(Schema.TEXT_X, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * The keyword queries of one recall: {@link #allWords} (null for a sentence, or fewer than two
   * words) and {@link #anyWord}. Each word's clauses, typo expansion included, are built once and
   * shared by both.
   */
  record Keyword(Query allWords, Query anyWord) {}

  /**
   * The keyword queries of {@code query}, for {@code searcher} only: it tells which words are
   * unknown (expanded by {@link Typos}), and the term statistics looked up for that are kept in
   * the queries. A word scores in the best of the fields it occurs in (a word in a record's title
   * and again in its text counts once, at the title's weight), so that BM25 over the words decides,
   * rare words and names first. A short query (up to {@value #SHORT_QUERY_WORDS} words, not a
   * question) must first match every word; a sentence never does: one unit that happens to hold
   * every word of a question would crowd out the evidence. Phrases, owners and dates add boosts.
   */
  static Keyword keyword(Parsed p, IndexSearcher searcher) throws IOException {
    return keyword(p, searcher, new WordClauses(), null);
  }

  /**
   * As {@link #keyword(Parsed, IndexSearcher)}, taking each word's clauses from {@code kept} when
   * they were built with {@code reader} (the searcher's reader's cache key) and keeping those it builds.
   */
  static Keyword keyword(Parsed p, IndexSearcher searcher, WordClauses kept, Object reader) throws IOException {
    List<Word> words = p.words();
    List<Query> perWord = new ArrayList<>(words.size());
    List<Query> ownedBy = new ArrayList<>(2);
    // Which phrase fields hold every word as written: a phrase with a word its field lacks
    // cannot match, and building its weight looks every word up again.
    boolean[] phraseable = new boolean[PHRASE_FIELDS.length];
    java.util.Arrays.fill(phraseable, true);
    TermLookup lookup = new TermLookup(searcher);
    for (Word w : words) {
      WordClauses.Clauses c = kept.get(reader, w);
      if (c == null) {
        c = wordQuery(w, lookup, searcher);
        kept.put(reader, searcher.getIndexReader().leaves().size(), w, c);
      }
      perWord.add(c.query());
      if (c.owned() != null && !ownedBy.contains(c.owned())) {
        ownedBy.add(c.owned());
      }
      for (int j = 0; j < PHRASE_FIELDS.length; j++) {
        phraseable[j] &= !c.lacksAsWritten()[j];
      }
    }
    List<Query> extras = new ArrayList<>();
    for (String t : p.exact()) {
      extras.add(new BoostQuery(new TermQuery(new Term(Schema.IDENT, t)), ID_BOOST));
    }
    // Not for a question: its words are rarely a phrase of the answer (on LoCoMo, the generated
    // conversations and the labelled corpus, every mode ranked the same or better without), and
    // three sloppy phrases of ten words were a tenth of its search.
    if (words.size() >= 2 && !p.question()) {
      for (int i = 0; i < PHRASE_FIELDS.length; i++) {
        if (phraseable[i]) {
          Query phrase = PreparedQuery.leaf(searcher, phrase(PHRASE_FIELDS[i], words, PHRASE_SLOPS[i]));
          extras.add(new BoostQuery(phrase, PHRASE_BOOSTS[i]));
        }
      }
    }
    // Records owned by a person the query names: the teller of a turn, the owner of a task.
    if (!ownedBy.isEmpty()) {
      Query owned = ownedBy.get(0);
      if (ownedBy.size() > 1) {
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        ownedBy.forEach(q -> any.add(q, Occur.SHOULD));
        owned = any.build();
      }
      extras.add(new BoostQuery(new ConstantScoreQuery(owned), OWNER_BOOST));
    }
    if (p.asksWhen()) {
      extras.add(new BoostQuery(DATED, WHEN_BOOST));
      extras.add(new BoostQuery(TimeWords.QUERY, TimeWords.KEYWORD));
    }
    List<Query> dates = new ArrayList<>();
    for (Query q : dateClauses(p.dates())) {
      dates.add(PreparedQuery.leaf(searcher, q));
    }
    Query all = null;
    if (words.size() >= 2 && !p.sentence()) {
      BooleanQuery.Builder every = new BooleanQuery.Builder();
      for (Query q : perWord) {
        every.add(q, Occur.MUST);
      }
      BooleanQuery.Builder main = new BooleanQuery.Builder().add(every.build(), Occur.MUST);
      extras.forEach(q -> main.add(q, Occur.SHOULD));
      dates.forEach(q -> main.add(q, Occur.SHOULD));
      all = new PreparedQuery(main.build());
    }
    BooleanQuery.Builder main = new BooleanQuery.Builder();
    for (Query q : perWord) {
      if (!(q instanceof MatchNoDocsQuery)) {
        main.add(q, Occur.SHOULD);
      }
    }
    if (!words.isEmpty() || !p.dates().spans().isEmpty()) {
      extras.forEach(q -> main.add(q, Occur.SHOULD));
    }
    dates.forEach(q -> main.add(q, Occur.SHOULD));
    BooleanQuery built = main.build();
    Query any = built.clauses().isEmpty() ? new MatchNoDocsQuery("nothing to search for") : new PreparedQuery(built);
    return new Keyword(all, any);
  }

  /** The fields a word is searched in, and each one's weight. */
  private static final String[] WORD_FIELDS =
      {Schema.TITLE, Schema.HEADING, Schema.DTITLE, Schema.BARE_TITLE, Schema.TEXT, Schema.NEAR};
  private static final float[] WORD_BOOSTS =
      {TITLE_BOOST, HEADING_BOOST, DOC_TITLE_BOOST, BARE_TITLE_BOOST, TEXT_BOOST, NEAR_BOOST};
  /** The fields the words score in again as a loose phrase, each one's slop and weight. */
  private static final String[] PHRASE_FIELDS = {Schema.TITLE, Schema.HEADING, Schema.TEXT};
  private static final int[] PHRASE_SLOPS = {2, 2, 4};
  private static final float[] PHRASE_BOOSTS = {TITLE_BOOST, HEADING_BOOST, TEXT_BOOST};

  /**
   * A word's score: the best of its fields, each field the word as written plus its stem at half;
   * a person's name (an {@code owner} value somewhere) at {@link #NAME_WEIGHT}. Only the terms
   * some unit has become clauses (a clause that matches nothing scores nothing, and costs a weight
   * and a scorer per search); a word found nowhere, typos included, is a {@link MatchNoDocsQuery}.
   * Says which of the {@link #PHRASE_FIELDS} lack the word as written.
   */
  private static WordClauses.Clauses wordQuery(Word w, TermLookup lookup, IndexSearcher searcher)
      throws IOException {
    boolean[] lacks = new boolean[PHRASE_FIELDS.length];
    List<Query> perField = new ArrayList<>(WORD_FIELDS.length);
    boolean known = false;
    for (int i = 0; i < WORD_FIELDS.length; i++) {
      List<Query> terms = new ArrayList<>(2);
      boolean asWritten = addTerm(terms, lookup, new Term(WORD_FIELDS[i], w.term()), WORD_BOOSTS[i]);
      if (w.stem() != null) {
        addTerm(terms, lookup, new Term(WORD_FIELDS[i], w.stem()), WORD_BOOSTS[i] * STEM_WEIGHT);
      }
      for (int j = 0; j < PHRASE_FIELDS.length; j++) {
        if (PHRASE_FIELDS[j].equals(WORD_FIELDS[i]) && !asWritten) {
          lacks[j] = true;
        }
      }
      if (terms.size() == 1) {
        perField.add(terms.get(0));
      } else if (terms.size() == 2) {
        perField.add(new BooleanQuery.Builder().add(terms.get(0), Occur.SHOULD).add(terms.get(1), Occur.SHOULD).build());
      }
      known |= !terms.isEmpty();
    }
    int len = w.term().codePointCount(0, w.term().length());
    if (!known && len >= 4 && !w.term().chars().allMatch(Character::isDigit)) {
      Typos.Expansion typo = Typos.of(w.term(), len >= 7 ? 2 : 1);
      for (int i = 0; i < WORD_FIELDS.length; i++) {
        perField.add(PreparedQuery.leaf(searcher, typo.query(WORD_FIELDS[i], WORD_BOOSTS[i] * FUZZY_WEIGHT)));
      }
    }
    Term who = new Term(Schema.WHO, w.term());
    TermStates whoStates = lookup.states(who);
    Query owned = whoStates.docFreq() > 0 ? new TermQuery(who, whoStates) : null;
    if (perField.isEmpty()) {
      return new WordClauses.Clauses(new MatchNoDocsQuery("no unit has " + w.term()), lacks, owned);
    }
    Query q = perField.size() == 1 ? perField.get(0) : new DisjunctionMaxQuery(perField, FIELD_TIE);
    boolean name = known && owned != null;
    return new WordClauses.Clauses(name ? new BoostQuery(q, NAME_WEIGHT) : q, lacks, owned);
  }

  /**
   * Adds a clause for {@code term} if some unit has it; true if so. The term is looked up in every
   * segment once, here: the query keeps what was found, so neither pass of the recall (all words,
   * then any word) looks it up again.
   */
  private static boolean addTerm(List<Query> clauses, TermLookup lookup, Term term, float boost)
      throws IOException {
    TermStates states = lookup.states(term);
    if (states.docFreq() == 0) {
      return false;
    }
    clauses.add(new BoostQuery(new TermQuery(term, states), boost));
    return true;
  }

  private static Query phrase(String field, List<Word> words, int slop) {
    PhraseQuery.Builder p = new PhraseQuery.Builder();
    p.setSlop(slop);
    for (Word w : words) {
      p.add(new Term(field, w.term()), w.position());
    }
    return p.build();
  }

  /**
   * The exact query: the words of the query, lowercase, consecutive and in order, in one value of
   * a title, heading path, body text or id. Quotes around the query are ignored.
   */
  static Query exact(String query) {
    String q = query.strip();
    if (q.length() >= 2 && (q.startsWith("\"") && q.endsWith("\"") || q.startsWith("'") && q.endsWith("'"))) {
      q = q.substring(1, q.length() - 1);
    }
    List<String> terms = exactTerms(q);
    BooleanQuery.Builder main = new BooleanQuery.Builder();
    if (!terms.isEmpty()) {
      String[] fields = {Schema.IDENT, Schema.TITLE_X, Schema.HEADING_X, Schema.TEXT_X};
      float[] boosts = {ID_BOOST, TITLE_BOOST, HEADING_BOOST, TEXT_BOOST};
      for (int i = 0; i < fields.length; i++) {
        Query fq;
        if (terms.size() == 1) {
          fq = new TermQuery(new Term(fields[i], terms.get(0)));
        } else {
          PhraseQuery.Builder p = new PhraseQuery.Builder();
          for (String t : terms) {
            p.add(new Term(fields[i], t));
          }
          fq = p.build();
        }
        main.add(new BoostQuery(fq, boosts[i]), Occur.SHOULD);
      }
    }
    QueryDates d = QueryDates.of(q);
    boolean dated = d.only() && !d.spans().isEmpty();
    if (dated) {
      dateClauses(d).forEach(c -> main.add(c, Occur.SHOULD));
    }
    return terms.isEmpty() && !dated ? new MatchNoDocsQuery("nothing to search for") : main.build();
  }

  /** Units with a date meeting one of the query's dates (a filter), or null when it has none. */
  static Query anyDate(QueryDates d) {
    if (d.spans().isEmpty()) {
      return null;
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (DateSpan s : d.spans()) {
      any.add(meets(s), Occur.SHOULD);
    }
    return any.build();
  }

  /** Units with a date meeting {@code s}. */
  private static Query meets(DateSpan s) {
    long[] r = DocMapper.range(s);
    return LongRange.newIntersectsQuery(Schema.DATES, new long[] {r[0]}, new long[] {r[1]});
  }

  /** One clause per date of the query: records with a date meeting it. */
  private static List<Query> dateClauses(QueryDates d) {
    List<Query> out = new ArrayList<>(d.spans().size());
    for (DateSpan s : d.spans()) {
      out.add(new BoostQuery(new ConstantScoreQuery(meets(s)), DATE_BOOST));
    }
    return out;
  }

  /**
   * The filter clauses of a request, or null when it has none. A document's meta entry (kind
   * {@code m}) needs no clause of its own: it has no text, identifier, date or vector field, so
   * no query of a recall can match it (and a filter clause on every search cost a rewrite per
   * segment).
   */
  static Query filter(RecallRequest.Filters f) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    boolean any = false;
    if (f.documents() != null) {
      List<BytesRef> paths = new ArrayList<>();
      for (String p : f.documents()) {
        paths.add(new BytesRef(p));
      }
      b.add(new TermInSetQuery(Schema.PATH, paths), Occur.FILTER);
      any = true;
    }
    if (f.folder() != null) {
      b.add(new TermQuery(new Term(Schema.FOLDER, f.folder())), Occur.FILTER);
      any = true;
    }
    if (f.type() != null) {
      b.add(new TermQuery(new Term(Schema.TYPE, f.type())), Occur.FILTER);
      any = true;
    }
    if (f.scope() != null) {
      b.add(new TermQuery(new Term(Schema.SCOPE, f.scope())), Occur.FILTER);
      any = true;
    }
    if (f.dates() != null && f.dates().active()) {
      DateSpan w = f.dates().window();
      String field = f.dates().field() == null ? Schema.DATE_DEFAULT : Schema.DATE_PREFIX + f.dates().field();
      long from = DocMapper.millis(w.start());
      long to = w.end().equals(Instant.MAX) ? Long.MAX_VALUE : DocMapper.millis(w.end()) - 1;
      b.add(LongRange.newIntersectsQuery(field, new long[] {from}, new long[] {to}), Occur.FILTER);
      any = true;
    }
    return any ? b.build() : null;
  }

  /** A query restricted by a filter (none: {@code q} itself). */
  static Query filtered(Query q, Query filter) {
    return filter == null ? q : new BooleanQuery.Builder().add(q, Occur.MUST).add(filter, Occur.FILTER).build();
  }
}
