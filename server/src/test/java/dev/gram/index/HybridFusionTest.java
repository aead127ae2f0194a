package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How hybrid recall merges its two rankings ({@link HybridFusion.Method#ZSCORE}, the default). */
class HybridFusionTest {
  private final HybridFusion fusion = new HybridFusion(HybridFusion.Method.ZSCORE, 0.6);

  @Test
  void aKeywordHitThatStandsOutLeadsOverAFlatSemanticRanking() {
    // "a" shares a rare word with the query; the semantic ranking finds nothing much nearer than
    // anything else. A fixed 0.6 / 0.4 split of z-scores would put "a" last.
    List<Candidate> keyword = ranking(new String[] {"a", "b", "c", "d", "e", "f"}, 12.0f, 4.0f, 3.9f, 3.8f, 3.7f, 3.6f);
    List<Candidate> semantic =
        ranking(new String[] {"b", "c", "d", "e", "f", "a"}, 0.70f, 0.69f, 0.68f, 0.67f, 0.66f, 0.60f);
    assertThat(keys(fusion.fuse(keyword, semantic, false))).startsWith("a", "b");
  }

  @Test
  void aSemanticHitThatStandsOutLeadsOverAFlatKeywordRanking() {
    List<Candidate> keyword = ranking(new String[] {"a", "b", "c", "d", "e", "f"}, 4.0f, 3.95f, 3.9f, 3.85f, 3.8f, 3.75f);
    List<Candidate> semantic =
        ranking(new String[] {"f", "e", "d", "c", "b", "a"}, 0.80f, 0.62f, 0.61f, 0.60f, 0.59f, 0.58f);
    assertThat(keys(fusion.fuse(keyword, semantic, false))).startsWith("f");
  }

  @Test
  void anEntityInOneRankingCountsAsTheOthersLowest() {
    List<Candidate> keyword = ranking(new String[] {"a", "b"}, 5.0f, 4.0f);
    List<Candidate> semantic = ranking(new String[] {"c", "a"}, 0.8f, 0.6f);
    assertThat(keys(fusion.fuse(keyword, semantic, false))).containsExactly("c", "a", "b");
  }

  @Test
  void zscoresOfALoneHitAndOfEqualScores() {
    assertThat(HybridFusion.zscores(ranking(new String[] {"a"}, 3f))).containsExactly(1.0);
    assertThat(HybridFusion.zscores(ranking(new String[] {"a", "b"}, 3f, 3f))).containsExactly(0.0, 0.0);
    assertThat(HybridFusion.zscores(List.of())).isEmpty();
  }

  private static List<Candidate> ranking(String[] keys, float... scores) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      out.add(new Candidate(i, scores[i], keys[i], null));
    }
    return out;
  }

  private static List<String> keys(List<Candidate> fused) {
    return fused.stream().map(Candidate::key).toList();
  }
}
