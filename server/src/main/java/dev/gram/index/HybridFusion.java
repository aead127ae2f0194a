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
    CONVEX
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
    Map<String, double[]> score = new HashMap<>();
    Map<String, Candidate> best = new HashMap<>();
    double w = dated ? Math.min(semanticWeight, DATED_SEMANTIC_WEIGHT) : semanticWeight;
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
