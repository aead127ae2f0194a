package dev.gram.index;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.lucene.index.FilteredTermsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BoostAttribute;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.AttributeSource;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.apache.lucene.util.UnicodeUtil;
import org.apache.lucene.util.automaton.CompiledAutomaton;
import org.apache.lucene.util.automaton.LevenshteinAutomata;

/**
 * The typo expansion of a word the index does not know: the indexed terms within one edit (up to
 * six letters) or two (beyond) of it, the first letter kept, a swap of two neighbours counting as
 * one edit.
 *
 * <p>Lucene's {@code FuzzyQuery} finds these terms with a Levenshtein automaton intersected with the
 * terms dictionary. Building and compiling that automaton costs 3 to 4 ms for a two-edit word on
 * this project's 2-core machines (JFR: nine tenths of a keyword recall's CPU over questions with
 * an unknown word), whatever the size of the dictionary. Most fields of most vaults hold a few
 * thousand terms, and walking the ones that share the word's first letter, skipping those whose
 * length is too far off and measuring the rest with a distance bounded by the allowed edits, costs
 * tens of microseconds. So a field of a segment with at most {@link #WALK_TERMS} terms is walked,
 * and only a larger one intersects the automaton, compiled once per word and kept for the next
 * recalls that ask it. Both find the same terms (TyposTest checks this on random dictionaries).
 *
 * <p>Scoring is {@code FuzzyQuery}'s: each expansion weighted by its closeness, {@code 1 - edits /
 * shorter length}, at most {@link #MAX_EXPANSIONS} per field, closest first, their document
 * frequencies blended.
 */
final class Typos {
  private Typos() {}

  static final int MAX_EXPANSIONS = 50;
  /** Letters kept as written: a typo in the first letter is rare and would widen the walk a lot. */
  static final int PREFIX = 1;
  /**
   * The most terms a field of one segment may hold to be walked rather than intersected with the
   * automaton. A walk visits the terms that share the word's first letter (a few percent of the
   * field's) at well under a microsecond each; at this size it still costs less than compiling
   * the automaton.
   */
  static final long WALK_TERMS = 100_000;

  /** A compiled expansion of one word; {@link #query} per field. */
  static final class Expansion {
    private final String word;
    private final int[] codePoints;
    private final int edits;
    /** The kept first letter, as UTF-8. */
    private final BytesRef prefix;
    /** Compiled the first time a field too large to walk asks for it. */
    private volatile CompiledAutomaton automaton;

    private Expansion(String word, int edits) {
      this.word = word;
      this.codePoints = word.codePoints().toArray();
      this.edits = edits;
      this.prefix = new BytesRef(word.substring(0, prefixEnd(word)));
    }

    CompiledAutomaton automaton() {
      CompiledAutomaton a = automaton;
      if (a == null) {
        int cut = prefixEnd(word);
        a = new CompiledAutomaton(
            new LevenshteinAutomata(word.substring(cut), true).toAutomaton(edits, word.substring(0, cut)), true, false);
        automaton = a;
      }
      return a;
    }

    /** The terms of {@code terms} within the edits, each with its closeness as its boost. */
    TermsEnum closeTerms(Terms terms) throws IOException {
      long size = terms.size();
      return size >= 0 && size <= WALK_TERMS ? walk(terms) : intersect(terms);
    }

    TermsEnum walk(Terms terms) throws IOException {
      return new Walk(terms.iterator(), this);
    }

    TermsEnum intersect(Terms terms) throws IOException {
      return new Intersection(automaton().getTermsEnum(terms), this);
    }

    /** The expansions of the word in {@code field}, weighted by {@code boost}. */
    Query query(String field, float boost) {
      return new BoostQuery(new TypoQuery(field, this), boost);
    }
  }

  /**
   * The close terms of one field, each weighted by its closeness; rewritten as {@code FuzzyQuery}
   * is (the {@link #MAX_EXPANSIONS} closest terms, their document frequencies blended so that a
   * rare misspelling does not outrank the common word it resembles).
   */
  private static final class TypoQuery extends MultiTermQuery {
    private final Expansion expansion;

    TypoQuery(String field, Expansion expansion) {
      super(field, new MultiTermQuery.TopTermsBlendedFreqScoringRewrite(MAX_EXPANSIONS));
      this.expansion = expansion;
    }

    @Override
    protected TermsEnum getTermsEnum(Terms terms, AttributeSource atts) throws IOException {
      return expansion.closeTerms(terms);
    }

    @Override
    public void visit(QueryVisitor visitor) {
      if (visitor.acceptField(field)) {
        visitor.visitLeaf(this);
      }
    }

    @Override
    public String toString(String f) {
      return (field.equals(f) ? "" : field + ":") + expansion.word + "~" + expansion.edits;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TypoQuery t && t.field.equals(field) && t.expansion.word.equals(expansion.word)
          && t.expansion.edits == expansion.edits;
    }

    @Override
    public int hashCode() {
      return Objects.hash(field, expansion.word, expansion.edits);
    }
  }

  /**
   * Expansions of recent words, with their automata once a large field compiled them. An automaton
   * depends on the word alone, never on the index, so it can be kept; agents repeat queries (a
   * retry, the next page of a cursor). A two-edit automaton of a ten-letter word takes some tens of
   * KiB: 64 of them bound the cost.
   */
  private static final int CACHED = 64;

  private static final Map<String, Expansion> RECENT =
      new LinkedHashMap<>(CACHED * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Expansion> eldest) {
          return size() > CACHED;
        }
      };

  /** The expansion of {@code word} within {@code edits} edits, from the cache or new. */
  static Expansion of(String word, int edits) {
    String key = edits + ":" + word;
    synchronized (RECENT) {
      Expansion e = RECENT.get(key);
      if (e != null) {
        return e;
      }
    }
    Expansion e = new Expansion(word, edits);
    synchronized (RECENT) {
      RECENT.put(key, e);
    }
    return e;
  }

  private static int prefixEnd(String word) {
    return word.offsetByCodePoints(0, Math.min(PREFIX, word.codePointCount(0, word.length())));
  }

  /** The terms the automaton accepts, each given its closeness. */
  private static final class Intersection extends FilteredTermsEnum {
    private final BoostAttribute boost = attributes().addAttribute(BoostAttribute.class);
    private final int[] word;

    Intersection(TermsEnum matches, Expansion e) {
      super(matches, false);
      this.word = e.codePoints;
    }

    @Override
    protected AcceptStatus accept(BytesRef term) {
      boost.setBoost(closeness(word, term.utf8ToString().codePoints().toArray()));
      return AcceptStatus.YES;
    }
  }

  /**
   * The terms from the word's first letter on, in order, until one no longer starts with it:
   * those whose length is within the edits are measured, with a distance that gives up once every
   * alignment is past the edits.
   */
  private static final class Walk extends FilteredTermsEnum {
    private final BoostAttribute boost = attributes().addAttribute(BoostAttribute.class);
    private final Expansion e;
    private int[] letters = new int[32];

    Walk(TermsEnum all, Expansion e) {
      super(all, true);
      this.e = e;
      setInitialSeekTerm(e.prefix);
    }

    @Override
    protected AcceptStatus accept(BytesRef term) {
      if (!StringHelper.startsWith(term, e.prefix)) {
        return AcceptStatus.END;
      }
      int n = decode(term);
      int[] word = e.codePoints;
      if (Math.abs(n - word.length) > e.edits) {
        return AcceptStatus.NO;
      }
      int d = distanceWithin(word, word.length, letters, n, e.edits);
      if (d > e.edits) {
        return AcceptStatus.NO;
      }
      boost.setBoost(1f - (float) d / Math.min(word.length, n));
      return AcceptStatus.YES;
    }

    /** {@code term}'s code points into {@link #letters}; their count. */
    private int decode(BytesRef term) {
      if (letters.length < term.length) {
        letters = new int[term.length];
      }
      return UnicodeUtil.UTF8toUTF32(term, letters);
    }
  }

  /** {@code 1 - d / min(length)}, d the edit distance with swaps of neighbours as one edit. */
  static float closeness(String a, String b) {
    return closeness(a.codePoints().toArray(), b.codePoints().toArray());
  }

  private static float closeness(int[] x, int[] y) {
    int shorter = Math.min(x.length, y.length);
    if (shorter == 0) {
      return 0;
    }
    return 1f - (float) distance(x, y) / shorter;
  }

  /**
   * {@link #distance} of the first {@code xn} and {@code yn} code points, or {@code max + 1} as soon
   * as it must exceed {@code max} (every cell of a row beyond it: later rows only grow from there,
   * a swap reaching back one row at most, so two rows past it are checked).
   */
  static int distanceWithin(int[] x, int xn, int[] y, int yn, int max) {
    int[] before = new int[yn + 1];
    int[] previous = new int[yn + 1];
    int[] current = new int[yn + 1];
    for (int j = 0; j <= yn; j++) {
      previous[j] = j;
    }
    int previousMin = 0;
    for (int i = 1; i <= xn; i++) {
      current[0] = i;
      int rowMin = i;
      for (int j = 1; j <= yn; j++) {
        int cost = x[i - 1] == y[j - 1] ? 0 : 1;
        int v = Math.min(Math.min(previous[j] + 1, current[j - 1] + 1), previous[j - 1] + cost);
        if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1]) {
          v = Math.min(v, before[j - 2] + 1);
        }
        current[j] = v;
        rowMin = Math.min(rowMin, v);
      }
      if (rowMin > max && previousMin > max) {
        return max + 1;
      }
      previousMin = rowMin;
      int[] t = before;
      before = previous;
      previous = current;
      current = t;
    }
    return Math.min(previous[yn], max + 1);
  }

  /** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring). */
  static int distance(int[] x, int[] y) {
    int[][] d = new int[x.length + 1][y.length + 1];
    for (int i = 0; i <= x.length; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= y.length; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= x.length; i++) {
      for (int j = 1; j <= y.length; j++) {
        int cost = x[i - 1] == y[j - 1] ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1]) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[x.length][y.length];
  }
}
