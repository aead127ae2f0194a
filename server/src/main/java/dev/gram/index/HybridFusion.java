package dev.gram.index;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** How a hybrid recall merges its keyword and semantic rankings into one; see {@code docs/recall.md}. */
final class HybridFusion {
  enum Method {
    /** Reciprocal rank fusion: Σ weight / (60 + rank). */
    RRF,
    /** Convex combination of min-max normalized scores: Σ weight × normalized score. */
    CONVEX,
    /**
     * Each ranking's scores as z-scores (how many standard deviations above its own mean), an
     * entity missing from a ranking taking that ranking's lowest; the weights follow each
     * ranking's confidence (see {@link HybridFusion#confidentWeight}).
     */
    ZSCORE
  }

  static final int RRF_K = 60;

  private final Method method;
  private final double semanticWeight;

  HybridFusion(Method method, double semanticWeight) {
    this.method = method;
    this.semanticWeight = semanticWeight;
  }

  /**
   * The semantic weight when the query holds a date: a date is matched by the keyword ranking only
   * (records whose date meets it), so that ranking weighs more then.
   */
  static final double DATED_SEMANTIC_WEIGHT = 0.4;

  /**
   * One ranking of every entity in either list, best first (ties by key, so pages are stable).
   *
   * @param dated the query holds a date (see {@link #DATED_SEMANTIC_WEIGHT})
   */
  List<Candidate> fuse(List<Candidate> keyword, List<Candidate> semantic, boolean dated) {
    double w = dated ? Math.min(semanticWeight, DATED_SEMANTIC_WEIGHT) : semanticWeight;
    return method == Method.ZSCORE ? zscores(keyword, semantic, w) : ranksOrRange(keyword, semantic, w);
  }

  /** The least confidence a ranking is given, so that one flat ranking never takes all the weight. */
  static final double LEAST_CONFIDENCE = 0.1;

  /**
   * The semantic ranking's weight for one query: {@code w} and {@code 1 - w} each scaled by how
   * far that ranking's first hit stands above the ranking's mean (its z-score). A keyword ranking
   * whose first hit shares rare words with the query stands out; one whose hits share only a name
   * and common words is flat, and then the meaning decides more (and the other way round).
   */
  static double confidentWeight(double[] keywordZ, double[] semanticZ, double w) {
    double k = w < 1 ? (1 - w) * confidence(keywordZ) : 0;
    double v = w > 0 ? w * confidence(semanticZ) : 0;
    return k + v == 0 ? w : v / (k + v);
  }

  private static double confidence(double[] z) {
    return z.length == 0 ? LEAST_CONFIDENCE : Math.max(LEAST_CONFIDENCE, z[0]);
  }

  private List<Candidate> zscores(List<Candidate> keyword, List<Candidate> semantic, double w) {
    double[] kz = zscores(keyword);
    double[] sz = zscores(semantic);
    double ws = confidentWeight(kz, sz, w);
    double kMissing = lowest(kz);
    double sMissing = lowest(sz);
    Map<String, double[]> parts = new HashMap<>();
    Map<String, Candidate> best = new HashMap<>();
    for (int i = 0; i < keyword.size(); i++) {
      Candidate c = keyword.get(i);
      parts.put(c.key(), new double[] {kz[i], sMissing});
      best.put(c.key(), c);
    }
    for (int i = 0; i < semantic.size(); i++) {
      Candidate c = semantic.get(i);
      parts.computeIfAbsent(c.key(), k -> new double[] {kMissing, 0})[1] = sz[i];
      // The semantic unit carries the cosine and, for a document, the section that is closest.
      best.put(c.key(), c);
    }
    List<Candidate> out = new ArrayList<>(best.size());
    for (Candidate c : best.values()) {
      double[] p = parts.get(c.key());
      out.add(new Candidate(c.doc(), (float) ((1 - ws) * p[0] + ws * p[1]), c.key(), c.cosine()));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.score()).thenComparing(Candidate::key));
    return out;
  }

  /** Each score's distance from the ranking's mean in standard deviations (1 for a lone hit, 0 when all are equal). */
  static double[] zscores(List<Candidate> list) {
    double[] z = new double[list.size()];
    if (z.length == 1) {
      z[0] = 1;
    }
    if (z.length < 2) {
      return z;
    }
    double mean = 0;
    for (Candidate c : list) {
      mean += c.score();
    }
    mean /= z.length;
    double var = 0;
    for (Candidate c : list) {
      var += (c.score() - mean) * (c.score() - mean);
    }
    double sd = Math.sqrt(var / z.length);
    for (int i = 0; i < z.length; i++) {
      z[i] = sd < 1e-12 ? 0 : (list.get(i).score() - mean) / sd;
    }
    return z;
  }

  private static double lowest(double[] z) {
    double min = 0;
    for (int i = 0; i < z.length; i++) {
      min = i == 0 ? z[i] : Math.min(min, z[i]);
    }
    return min;
  }

  private List<Candidate> ranksOrRange(List<Candidate> keyword, List<Candidate> semantic, double w) {
    Map<String, double[]> score = new HashMap<>();
    Map<String, Candidate> best = new HashMap<>();
    double[] lexNorm = normalized(keyword, false);
    double[] semNorm = normalized(semantic, true);
    for (int i = 0; i < keyword.size(); i++) {
      Candidate c = keyword.get(i);
      double v = method == Method.RRF ? 1.0 / (RRF_K + i + 1) : lexNorm[i];
      score.computeIfAbsent(c.key(), k -> new double[1])[0] += (1 - w) * v;
      best.putIfAbsent(c.key(), c);
    }
    for (int i = 0; i < semantic.size(); i++) {
      Candidate c = semantic.get(i);
      double v = method == Method.RRF ? 1.0 / (RRF_K + i + 1) : semNorm[i];
      score.computeIfAbsent(c.key(), k -> new double[1])[0] += w * v;
      // The semantic unit carries the cosine and, for a document, the section that is closest.
      best.put(c.key(), c);
    }
    List<Candidate> out = new ArrayList<>(best.size());
    for (Candidate c : best.values()) {
      out.add(new Candidate(c.doc(), (float) score.get(c.key())[0], c.key(), c.cosine()));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.score()).thenComparing(Candidate::key));
    return out;
  }

  /** Scores scaled to [0, 1] between the list's lowest and highest (1 when all are equal). */
  private static double[] normalized(List<Candidate> list, boolean cosine) {
    double[] out = new double[list.size()];
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int i = 0; i < out.length; i++) {
      Candidate c = list.get(i);
      out[i] = cosine ? c.cosine() : c.score();
      min = Math.min(min, out[i]);
      max = Math.max(max, out[i]);
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = max - min < 1e-9 ? 1 : (out[i] - min) / (max - min);
    }
    return out;
  }
}
