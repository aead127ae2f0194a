package dev.gram.index;

import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.KeywordRepeatFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.miscellaneous.RemoveDuplicatesTokenFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzers of the recall index.
 *
 * <ul>
 *   <li><b>Keyword</b> (fields {@code title}, {@code dtitle}, {@code heading}, {@code text}): Unicode
 *       word splitting (UAX#29), English possessives removed, lowercase, diacritics folded to
 *       ASCII ({@code café} = {@code cafe}), then every word is indexed twice at the same position:
 *       as written and as its Porter stem. A query word therefore finds every form of the word
 *       through the stem, and documents holding the word exactly as asked score higher because they
 *       match the unstemmed token too. Stop words stay in the index (exact phrases need them); the
 *       keyword <em>query</em> drops them when other words remain.
 *   <li><b>Exact</b> (fields {@code ident}, {@code title_x}, {@code heading_x}, {@code text_x}):
 *       the same word splitting and lowercase, nothing else: no folding, no stemming, no stop
 *       words. See {@code docs/recall.md} for the exact-mode rules this gives.
 * </ul>
 *
 * <p>Several values of one field (a record's description, tags, other fields) are separated by a
 * large position gap so that no phrase matches across two values.
 */
final class Analyzers {
  private Analyzers() {}

  /** Gap between two values of the same field: larger than any phrase slop we use. */
  static final int VALUE_GAP = 100;

  /**
   * Words a keyword query leaves out when it has others: Lucene's English stop words, and the
   * question words, pronouns and auxiliaries agents write when they ask in sentences ("who is in
   * charge of …"), which otherwise match unrelated text.
   */
  static final CharArraySet STOP_WORDS = stopWords();

  private static CharArraySet stopWords() {
    CharArraySet s = new CharArraySet(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, true);
    for (String w :
        ("who whom whose what which when where why how "
                + "i me my we us our you your he him his she her it its they them their "
                + "do does did done can could should would must may might shall "
                + "has have had am been being get gets got "
                + "about from than so up out any some all much many more most very")
            .split(" ")) {
      s.add(w);
    }
    return CharArraySet.unmodifiableSet(s);
  }

  /** Index- and query-time keyword analysis (without stop words removed). */
  static Analyzer keyword() {
    return keyword(null);
  }

  /** The keyword query analyzer: like {@link #keyword()}, with English stop words removed. */
  static Analyzer keywordQuery() {
    return keyword(STOP_WORDS);
  }

  private static Analyzer keyword(CharArraySet stopWords) {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer source = new StandardTokenizer();
        TokenStream ts = new EnglishPossessiveFilter(source);
        ts = new LowerCaseFilter(ts);
        if (stopWords != null) {
          ts = new StopFilter(ts, stopWords);
        }
        ts = new ASCIIFoldingFilter(ts);
        ts = new KeywordRepeatFilter(ts);
        ts = new PorterStemFilter(ts);
        ts = new RemoveDuplicatesTokenFilter(ts);
        return new TokenStreamComponents(source, ts);
      }

      @Override
      public int getPositionIncrementGap(String fieldName) {
        return VALUE_GAP;
      }
    };
  }

  /** Exact analysis: words and lowercase only. */
  static Analyzer exact() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer source = new StandardTokenizer();
        return new TokenStreamComponents(source, new LowerCaseFilter(source));
      }

      @Override
      public int getPositionIncrementGap(String fieldName) {
        return VALUE_GAP;
      }
    };
  }

  /** The analyzer the IndexWriter uses: exact for the {@code _x} fields and ids, keyword else. */
  static Analyzer forIndex() {
    Analyzer exact = exact();
    return new PerFieldAnalyzerWrapper(
        keyword(),
        Map.of(
            Schema.IDENT, exact,
            Schema.TITLE_X, exact,
            Schema.HEADING_X, exact,
            Schema.TEXT_X, exact));
  }
}
