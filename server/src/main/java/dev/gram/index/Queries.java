package dev.gram.index;

import dev.gram.base.DateSpan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
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
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Builds the Lucene queries of the lexical modes, of dates in queries, and of the filters.
 *
 * <p>Boosts put a match in a record's title (3) above one in a section's heading path (2), the
 * document title (1.5) and body text (1); an id written in the query (4) above all. In keyword
 * mode a word as written scores its stem too, so exact words outrank other forms; a word found
 * nowhere in the index is looked up by edit distance (one edit up to six letters, two beyond), so
 * a typo still finds what was meant; several words also score as a loose phrase.
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

  private static final Analyzer KEYWORD = Analyzers.keyword();
  private static final Analyzer KEYWORD_QUERY = Analyzers.keywordQuery();
  private static final Analyzer EXACT = Analyzers.exact();

  /**
   * A date, month or year written in a query: {@code 2026-10-12}, {@code 2026-10}, {@code 2026}
   * (years 1900–2199, so that ordinary numbers are not read as years), standing alone as a word.
   */
  private static final Pattern DATE =
      Pattern.compile("(?<![\\w.:/-])((?:19|20|21)\\d{2}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01]))?)?)(?![\\w:/-])");

  /** The dates written in a query, and the query without them. */
  record Dates(List<DateSpan> spans, String rest) {
    boolean only() {
      return !spans.isEmpty() && rest.isBlank();
    }
  }

  static Dates dates(String query) {
    List<DateSpan> spans = new ArrayList<>();
    StringBuilder rest = new StringBuilder();
    Matcher m = DATE.matcher(query);
    int last = 0;
    while (m.find()) {
      DateSpan s = DateSpan.parse(m.group(1));
      if (s != null) {
        spans.add(s);
        rest.append(query, last, m.start()).append(' ');
        last = m.end();
      }
    }
    rest.append(query.substring(last));
    return new Dates(spans, rest.toString());
  }

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
   * The keyword queries of one recall: {@link #allWords} (null with fewer than two words) and
   * {@link #anyWord}. Each word's clauses, typo expansion included, are built once and shared by
   * both.
   */
  record Keyword(Query allWords, Query anyWord) {}

  /**
   * The keyword queries of {@code query}, for {@code searcher} only: it tells which words are
   * unknown (expanded by {@link Typos}), and the term statistics looked up for that are kept in
   * the queries. With all words, a unit must match every word of the query (each as written,
   * by its stem, or, when unknown, by a close term); with any word, more words rank higher.
   */
  static Keyword keyword(String query, IndexSearcher searcher) throws IOException {
    Dates d = dates(query);
    List<Word> words = words(d.rest());
    List<Query> perWord = new ArrayList<>(words.size());
    for (Word w : words) {
      perWord.add(wordQuery(w, searcher));
    }
    List<Query> extras = new ArrayList<>();
    for (String t : exactTerms(d.rest())) {
      extras.add(new BoostQuery(new TermQuery(new Term(Schema.IDENT, t)), ID_BOOST));
    }
    if (words.size() >= 2) {
      extras.add(new BoostQuery(phrase(Schema.TITLE, words, 2), TITLE_BOOST));
      extras.add(new BoostQuery(phrase(Schema.HEADING, words, 2), HEADING_BOOST));
      extras.add(new BoostQuery(phrase(Schema.TEXT, words, 4), TEXT_BOOST));
    }
    Query all = null;
    if (words.size() >= 2) {
      BooleanQuery.Builder every = new BooleanQuery.Builder();
      for (Query q : perWord) {
        every.add(q, Occur.MUST);
      }
      BooleanQuery.Builder main = new BooleanQuery.Builder().add(every.build(), Occur.MUST);
      extras.forEach(q -> main.add(q, Occur.SHOULD));
      addDates(main, d);
      all = main.build();
    }
    BooleanQuery.Builder main = new BooleanQuery.Builder();
    perWord.forEach(q -> main.add(q, Occur.SHOULD));
    extras.forEach(q -> main.add(q, Occur.SHOULD));
    boolean dated = addDates(main, d);
    Query any = words.isEmpty() && !dated ? new MatchNoDocsQuery("nothing to search for") : main.build();
    return new Keyword(all, any);
  }

  private static Query wordQuery(Word w, IndexSearcher searcher) throws IOException {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    String[] fields = {Schema.TITLE, Schema.HEADING, Schema.DTITLE, Schema.TEXT};
    float[] boosts = {TITLE_BOOST, HEADING_BOOST, DOC_TITLE_BOOST, TEXT_BOOST};
    boolean known = false;
    for (int i = 0; i < fields.length; i++) {
      known |= addTerm(b, searcher, new Term(fields[i], w.term()), boosts[i]);
      if (w.stem() != null) {
        known |= addTerm(b, searcher, new Term(fields[i], w.stem()), boosts[i] * STEM_WEIGHT);
      }
    }
    int len = w.term().codePointCount(0, w.term().length());
    if (!known && len >= 4 && !w.term().chars().allMatch(Character::isDigit)) {
      Typos.Expansion typo = Typos.of(w.term(), len >= 7 ? 2 : 1);
      for (int i = 0; i < fields.length; i++) {
        b.add(typo.query(fields[i], boosts[i] * FUZZY_WEIGHT), Occur.SHOULD);
      }
    }
    return b.build();
  }

  /**
   * Adds a clause for {@code term}; true if some unit has it. The term is looked up in every
   * segment once, here: the query keeps what was found, so neither pass of the recall (all words,
   * then any word) looks it up again.
   */
  private static boolean addTerm(BooleanQuery.Builder b, IndexSearcher searcher, Term term, float boost)
      throws IOException {
    TermStates states = TermStates.build(searcher, term, true);
    b.add(new BoostQuery(new TermQuery(term, states), boost), Occur.SHOULD);
    return states.docFreq() > 0;
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
    Dates d = dates(q);
    boolean dated = d.only() && addDates(main, d);
    return terms.isEmpty() && !dated ? new MatchNoDocsQuery("nothing to search for") : main.build();
  }

  /** Adds one clause per date of the query: records with a date meeting it. */
  private static boolean addDates(BooleanQuery.Builder main, Dates d) {
    for (DateSpan s : d.spans()) {
      long[] r = DocMapper.range(s);
      Query q = LongRange.newIntersectsQuery(Schema.DATES, new long[] {r[0]}, new long[] {r[1]});
      main.add(new BoostQuery(new ConstantScoreQuery(q), DATE_BOOST), Occur.SHOULD);
    }
    return !d.spans().isEmpty();
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
