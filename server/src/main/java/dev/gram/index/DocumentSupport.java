package dev.gram.index;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Raises a fused candidate by how well the rest of its document matches the question.
 *
 * <p>Why: what answers a question tends to sit with other things that match it. In a memory of
 * conversations, one document per session, the session about the trip holds the turn that says
 * when it was and the turns around it that name the place; in a project's log, the decision and
 * the evidence it cites are records of one document. A unit's own text says only part of that, so
 * its document's other matches are evidence too.
 *
 * <p>The raise is {@link #WEIGHT} times the geometric mean of the unit's own fused score and the
 * best fused score among the other units of its document (negative scores count as zero). The
 * mean, not the other unit's score alone, so that a unit that matches nothing by itself is not
 * carried up by its document: measured (docs/recall.md), lifting every unit of a well-matched
 * document by that document's best score cost recall@5 on a corpus whose multi-hop questions are
 * answered from two sessions, and the mean did not.
 */
final class DocumentSupport {
  /** The raise's weight against the fused scores (z-scores, so a best hit is about 2 to 5). */
  static final double WEIGHT = 0.3;

  private DocumentSupport() {}

  /** {@code fused}, best first, each score raised by its document's other matches. */
  static List<Candidate> raise(List<Candidate> fused) {
    if (fused.size() < 2) {
      return fused;
    }
    // Per document: its best and second-best scores (at least 0); each candidate's document once.
    Map<String, float[]> best = new HashMap<>();
    float[][] documentOf = new float[fused.size()][];
    for (int i = 0; i < documentOf.length; i++) {
      Candidate c = fused.get(i);
      float s = Math.max(0, c.score());
      float[] b = best.computeIfAbsent(path(c), k -> new float[2]);
      documentOf[i] = b;
      if (s > b[0]) {
        b[1] = b[0];
        b[0] = s;
      } else if (s > b[1]) {
        b[1] = s;
      }
    }
    List<Candidate> out = new ArrayList<>(fused.size());
    for (int i = 0; i < documentOf.length; i++) {
      Candidate c = fused.get(i);
      float s = Math.max(0, c.score());
      float[] b = documentOf[i];
      // The best other unit: the second best when this one is the best.
      float other = s >= b[0] ? b[1] : b[0];
      double raise = WEIGHT * Math.sqrt((double) s * other);
      out.add(raise == 0 ? c : new Candidate(c.doc(), (float) (c.score() + raise), c.key(), c.cosine()));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.score()).thenComparing(Candidate::key));
    return out;
  }

  /** The document of a candidate: its key is {@code path#id}, and an id holds no {@code #}. */
  private static String path(Candidate c) {
    int hash = c.key().lastIndexOf('#');
    return hash < 0 ? c.key() : c.key().substring(0, hash);
  }
}
