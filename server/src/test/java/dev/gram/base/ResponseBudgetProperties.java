package dev.gram.base;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The budget's quick bound reads no character and is never below the exact bound, and {@link
 * ResponseBudget#fits} says what the encoded size says, for answers on both sides of the budget.
 */
class ResponseBudgetProperties {

  @Property(tries = 400)
  void theRoughBoundIsNeverBelowTheBoundNorFitsWrong(@ForAll("answers") JsonObject answer) {
    long exact = ResponseBudget.sizeOf(answer);
    assertThat(ResponseBudget.atMost(answer)).isGreaterThanOrEqualTo(exact);
    assertThat(ResponseBudget.roughlyAtMost(answer)).isGreaterThanOrEqualTo(ResponseBudget.atMost(answer));
    assertThat(ResponseBudget.fits(answer)).isEqualTo(exact <= ResponseBudget.BYTES);
  }

  @Provide
  Arbitrary<JsonObject> answers() {
    Arbitrary<Character> any = Arbitraries.of('a', ' ', '"', '\\', '\n', '\u0001', '\u001f', '\u00e9', '\u4e2d', '\ud83d', '\ude00');
    Arbitrary<String> text = Arbitraries.oneOf(
        any.list().ofMaxSize(40).map(ResponseBudgetProperties::join),
        Arbitraries.of("\u0001", "x", "\u4e2d", "\ud83d\ude00").flatMap(c -> Arbitraries.integers().between(0, 3_500)
            .map(c::repeat)));
    return Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8), text.list().ofMaxSize(6))
        .ofMaxSize(5)
        .map(m -> {
          JsonObject o = new JsonObject();
          m.forEach((k, v) -> o.put(k, new JsonArray(new java.util.ArrayList<>(v))));
          return o;
        });
  }

  private static String join(java.util.List<Character> cs) {
    StringBuilder b = new StringBuilder();
    cs.forEach(b::append);
    return b.toString();
  }
}
