package dev.gram.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scores of a ranking against known evidence, and the plain BM25 every run is compared with.
 *
 * <p>recall@k is the share of a question's evidence among its first k hits, averaged over questions;
 * MRR the reciprocal rank of the first evidence hit within the first 10 (0 when none).
 */
public final class RecallScores {
  private double r5;
  private double r10;
  private double mrr;
  private int n;

  public void add(List<String> ranked, List<String> evidence) {
    r5 += share(ranked, evidence, 5);
    r10 += share(ranked, evidence, 10);
    for (int i = 0; i < Math.min(10, ranked.size()); i++) {
      if (evidence.contains(ranked.get(i))) {
        mrr += 1.0 / (i + 1);
        break;
      }
    }
    n++;
  }

  public static double share(List<String> ranked, List<String> evidence, int k) {
    int found = 0;
    for (String e : evidence) {
      int at = ranked.indexOf(e);
      if (at >= 0 && at < k) {
        found++;
      }
    }
    return (double) found / evidence.size();
  }

  public double recall5() {
    return n == 0 ? 0 : r5 / n;
  }

  public double recall10() {
    return n == 0 ? 0 : r10 / n;
  }

  public double mrr() {
    return n == 0 ? 0 : mrr / n;
  }

  public int count() {
    return n;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.3f | %.3f | %.3f", recall5(), recall10(), mrr());
  }

  /**
   * Textbook BM25 (k1 1.2, b 0.75) over texts split into lowercase letters-and-digits words, no
   * stemming and no stop words: the baseline a ranking must beat.
   */
  public static final class Bm25 {
    private final List<String> ids = new ArrayList<>();
    private final List<Map<String, Integer>> tf = new ArrayList<>();
    private final List<Integer> len = new ArrayList<>();
    private final Map<String, Integer> df = new HashMap<>();
    private long total;

    public void add(String id, String text) {
      Map<String, Integer> f = new HashMap<>();
      List<String> words = words(text);
      words.forEach(w -> f.merge(w, 1, Integer::sum));
      f.keySet().forEach(w -> df.merge(w, 1, Integer::sum));
      ids.add(id);
      tf.add(f);
      len.add(words.size());
      total += words.size();
    }

    public List<String> top(String query, int k) {
      double avg = (double) total / Math.max(1, ids.size());
      double[] score = new double[ids.size()];
      for (String w : words(query)) {
        Integer d = df.get(w);
        if (d == null) {
          continue;
        }
        double idf = Math.log(1 + (ids.size() - d + 0.5) / (d + 0.5));
        for (int i = 0; i < ids.size(); i++) {
          Integer f = tf.get(i).get(w);
          if (f != null) {
            score[i] += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len.get(i) / avg));
          }
        }
      }
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < score.length; i++) {
        if (score[i] > 0) {
          order.add(i);
        }
      }
      order.sort((x, y) -> Double.compare(score[y], score[x]));
      List<String> out = new ArrayList<>();
      for (int i = 0; i < Math.min(k, order.size()); i++) {
        out.add(ids.get(order.get(i)));
      }
      return out;
    }

    private static List<String> words(String text) {
      List<String> out = new ArrayList<>();
      for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
        if (!w.isEmpty()) {
          out.add(w);
        }
      }
      return out;
    }
  }
}
