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
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.CompiledAutomaton;
import org.apache.lucene.util.automaton.LevenshteinAutomata;

/**
 * The typo expansion of a word the index does not know: the indexed terms within one edit (up to
 * six letters) or two (beyond) of it, the first letter kept, a swap of two neighbours counting as
 * one edit.
 *
 * <p>Lucene's {@code FuzzyQuery} does the same, but it compiles its automata (one per edit
 * distance, each converted to UTF-8 and sorted) again for every field it is asked about and every
 * search that rewrites it. A keyword recall asks about four fields and may search twice (all words,
 * then any word), so one unknown word cost 24 compiled automata, most of a recall's time (JFR:
 * automaton building and sorting were over half the CPU of a keyword recall). Here the automaton is
 * compiled once per word (and kept for the next recalls that ask it), walked over each field's
 * terms, and the closeness of each match is computed from the two words (at most a few dozen
 * characters).
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

  /** A compiled expansion of one word; {@link #query} per field. */
  static final class Expansion {
    private final String word;
    private final int[] codePoints;
    private final int edits;
    private final CompiledAutomaton automaton;

    private Expansion(String word, int edits, CompiledAutomaton automaton) {
      this.word = word;
      this.codePoints = word.codePoints().toArray();
      this.edits = edits;
      this.automaton = automaton;
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
      TermsEnum matches = expansion.automaton.getTermsEnum(terms);
      int[] word = expansion.codePoints;
      return new FilteredTermsEnum(matches, false) {
        private final BoostAttribute boost = attributes().addAttribute(BoostAttribute.class);

        @Override
        protected AcceptStatus accept(BytesRef term) {
          boost.setBoost(closeness(word, term.utf8ToString().codePoints().toArray()));
          return AcceptStatus.YES;
        }
      };
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
   * Compiled expansions of recent words. An automaton depends on the word alone, never on the
   * index, so it can be kept; agents repeat queries (a retry, the next page of a cursor). A
   * two-edit automaton of a ten-letter word takes some tens of KiB: 64 of them bound the cost.
   */
  private static final int CACHED = 64;

  private static final Map<String, Expansion> RECENT =
      new LinkedHashMap<>(CACHED * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Expansion> eldest) {
          return size() > CACHED;
        }
      };

  /** The expansion of {@code word} within {@code edits} edits, compiled or taken from the cache. */
  static Expansion of(String word, int edits) {
    String key = edits + ":" + word;
    synchronized (RECENT) {
      Expansion e = RECENT.get(key);
      if (e != null) {
        return e;
      }
    }
    Expansion e = compile(word, edits);
    synchronized (RECENT) {
      RECENT.put(key, e);
    }
    return e;
  }

  private static Expansion compile(String word, int edits) {
    int cut = word.offsetByCodePoints(0, Math.min(PREFIX, word.codePointCount(0, word.length())));
    Automaton a = new LevenshteinAutomata(word.substring(cut), true).toAutomaton(edits, word.substring(0, cut));
    return new Expansion(word, edits, new CompiledAutomaton(a, true, false));
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
