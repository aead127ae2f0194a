package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A fused candidate raised by its document's other matches ({@link DocumentSupport}). */
class DocumentSupportTest {
  @Test
  void aUnitWhoseSessionAlsoMatchesPassesALoneMatchOfTheSameStrength() {
    // The trip's session: the turn that names the lake, and the turn that says when (the answer).
    // Another session has one turn as near to the question as the answer, and nothing else.
    List<Candidate> fused = List.of(
        candidate("talk/session-4.gram#t12", 2.0f),
        candidate("talk/session-9.gram#t3", 1.6f),
        candidate("talk/session-4.gram#t13", 1.5f),
        candidate("talk/session-9.gram#t4", -0.4f));
    assertThat(keys(DocumentSupport.raise(fused)))
        .containsExactly("talk/session-4.gram#t12", "talk/session-4.gram#t13", "talk/session-9.gram#t3",
            "talk/session-9.gram#t4");
  }

  @Test
  void aUnitThatMatchesNothingItselfIsNotCarriedByItsDocument() {
    List<Candidate> fused = List.of(
        candidate("log.gram#decision-1", 4.0f),
        candidate("notes.gram#n2", 0.5f),
        candidate("log.gram#task-7", 0.0f),
        candidate("log.gram#task-8", -1.0f));
    List<Candidate> raised = DocumentSupport.raise(fused);
    assertThat(keys(raised)).containsExactly("log.gram#decision-1", "notes.gram#n2", "log.gram#task-7", "log.gram#task-8");
    assertThat(raised.get(2).score()).isZero();
    assertThat(raised.get(3).score()).isEqualTo(-1.0f);
  }

  @Test
  void theRaiseIsTheWeightTimesTheGeometricMeanWithTheBestOtherUnit() {
    List<Candidate> raised = DocumentSupport.raise(List.of(
        candidate("a.gram#x", 4.0f), candidate("a.gram#y", 1.0f), candidate("b.gram#z", 3.0f)));
    // x: its best other unit is y (1.0); y: x (4.0); z has no other unit.
    assertThat(raised.get(0).key()).isEqualTo("a.gram#x");
    assertThat(raised.get(0).score()).isEqualTo((float) (4.0 + DocumentSupport.WEIGHT * 2.0));
    assertThat(raised.get(1).key()).isEqualTo("b.gram#z");
    assertThat(raised.get(1).score()).isEqualTo(3.0f);
    assertThat(raised.get(2).score()).isEqualTo((float) (1.0 + DocumentSupport.WEIGHT * 2.0));
  }

  @Test
  void aPathMayHoldTheKeysSeparator() {
    List<Candidate> raised = DocumentSupport.raise(List.of(
        candidate("c#1.gram#a", 2.0f), candidate("c#1.gram#b", 2.0f), candidate("c.gram#c", 2.5f)));
    assertThat(keys(raised)).containsExactly("c#1.gram#a", "c#1.gram#b", "c.gram#c");
  }

  private static Candidate candidate(String key, float score) {
    return new Candidate(0, score, key, null);
  }

  private static List<String> keys(List<Candidate> list) {
    return list.stream().map(Candidate::key).toList();
  }
}
