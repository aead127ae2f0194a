package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The shape of tools/call results, and the response budget at its exact edge. */
class ToolResultsTest {
  private final ToolResults results = new ToolResults(new ServerInfo("gram-mcp", "t", null));

  /** An answer whose compact JSON is exactly {@code bytes} long: {"t":"…"} is 8 bytes of frame. */
  private static JsonObject answerOf(int bytes, String unit) {
    int units = (bytes - 8) / unit.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    JsonObject answer = new JsonObject().put("t", unit.repeat(units));
    assertThat(ResponseBudget.sizeOf(answer)).isEqualTo(bytes);
    return answer;
  }

  /**
   * A reply carries the answer's text, encoded once for the text content, spliced into the line
   * the transports write: that line is byte for byte the reply's message encoded whole, whatever
   * the answer, the request id and the era (fails on a member out of order or a missing comma).
   */
  @Property(tries = 500)
  void theRepliesLineIsTheMessageEncoded(
      @ForAll("answers") JsonObject answer, @ForAll("ids") Object id, @ForAll boolean modern) {
    ToolResults.Shaped shaped = results.answer("t", answer, modern ? Era.MODERN : Era.LEGACY);
    assertThat(shaped.answerText()).isNotNull();
    Reply reply = shaped.reply(id);
    assertThat(reply.encoded()).isEqualTo(reply.message().encode());
  }

  /**
   * The bound a tool checks its answer with before the protocol layer encodes it is never below
   * the answer's size, and is the size for plain text and whole numbers (fails when an escape is
   * counted short, or when the bound is lazily loose).
   */
  @Property(tries = 500)
  void theBudgetsBoundIsNeverBelowTheSizeAndIsItForPlainText(@ForAll("answers") JsonObject answer) {
    assertThat(ResponseBudget.atMost(answer)).isGreaterThanOrEqualTo(ResponseBudget.sizeOf(answer));
    JsonObject plain = new JsonObject();
    answer.fieldNames().forEach(k -> plain.put(k.replaceAll("[^a-z ]", ""), k.length()));
    plain.put("text", answer.encode().replaceAll("[^A-Za-z0-9 .,]", ""));
    assertThat(ResponseBudget.atMost(plain)).isEqualTo(ResponseBudget.sizeOf(plain));
  }

  /**
   * The bound is the size for any text without surrogates, escapes included: the budget, the
   * writer and the pages count a character by one rule (fails when an escape is counted long).
   */
  @Property(tries = 500)
  void theBudgetsBoundIsTheSizeForTextWithoutSurrogates(
      @ForAll @net.jqwik.api.constraints.CharRange(from = '\u0000', to = '\u00ff') String text) {
    JsonObject answer = new JsonObject().put("text", text + "\n\t\u0001\"\\\u4e2d");
    assertThat(ResponseBudget.atMost(answer)).isEqualTo(ResponseBudget.sizeOf(answer));
  }

  @Provide
  Arbitrary<JsonObject> answers() {
    Arbitrary<String> text = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(12),
        Arbitraries.strings().withChars("\"\\/\n\t\u0001\u00e9\u4e2d\ud83d\ude00 ab").ofMaxLength(12));
    Arbitrary<Object> leaf = Arbitraries.oneOf(
        text.map(t -> (Object) t),
        Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null));
    Arbitrary<Object> value = Arbitraries.recursive(
        () -> leaf,
        inner -> Arbitraries.oneOf(
            inner.list().ofMaxSize(4).map(l -> (Object) new JsonArray(new java.util.ArrayList<>(l))),
            Arbitraries.maps(text, inner).ofMaxSize(4).map(m -> (Object) new JsonObject(new java.util.LinkedHashMap<>(m)))),
        0, 3);
    return Arbitraries.maps(text, value).ofMaxSize(5).map(m -> new JsonObject(new java.util.LinkedHashMap<>(m)));
  }

  @Provide
  Arbitrary<Object> ids() {
    return Arbitraries.oneOf(
        Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.strings().ofMaxLength(8).map(s -> (Object) s),
        Arbitraries.just(null));
  }

  @Test
  void anAnswerOfExactlyTheBudgetIsServedAndOneByteMoreIsNot() {
    JsonObject fits = results.answer("t", answerOf(ResponseBudget.BYTES, "x"), Era.LEGACY).result();
    assertThat(fits.containsKey("isError")).isFalse();
    assertThat(fits.getJsonObject("structuredContent").getString("t")).hasSize(ResponseBudget.BYTES - 8);

    JsonObject over = results.answer("t", answerOf(ResponseBudget.BYTES + 1, "x"), Era.LEGACY).result();
    assertThat(over.getBoolean("isError")).isTrue();
    JsonObject error = over.getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("E_CONTEXT_BUDGET");
    assertThat(error.getJsonObject("details").getInteger("size_bytes")).isEqualTo(ResponseBudget.BYTES + 1);
    assertThat(error.getJsonObject("details").getInteger("budget_bytes")).isEqualTo(ResponseBudget.BYTES);
  }

  @Test
  void theBudgetCountsUtf8BytesNotCharacters() {
    // 8 bytes of frame + 8190 two-byte characters = 16388 bytes, though only 8198 characters.
    JsonObject answer = new JsonObject().put("t", "é".repeat(8190));
    JsonObject over = results.answer("t", answer, Era.LEGACY).result();
    assertThat(over.getJsonObject("structuredContent").getJsonObject("error").getJsonObject("details")
        .getInteger("size_bytes")).isEqualTo(16388);
  }

  @Test
  void errorsHaveTheOneErrorShapeInBothPlacesAndModernResultsNameTheServer() {
    GramException e = new GramException(ErrorCode.STALE_REVISION, "moved", new JsonObject().put("rev", 2));
    JsonObject modern = results.error(e, Era.MODERN);
    assertThat(modern.fieldNames()).containsExactly("content", "structuredContent", "isError", "resultType", "_meta");
    assertThat(modern.getJsonObject("structuredContent")).isEqualTo(ToolErrors.errorObject(e));
    assertThat(new JsonObject(modern.getJsonArray("content").getJsonObject(0).getString("text")))
        .isEqualTo(ToolErrors.errorObject(e));
    assertThat(modern.getJsonObject("_meta").getJsonObject(MetaKeys.SERVER_INFO).getString("name")).isEqualTo("gram-mcp");

    JsonObject legacy = results.answer("t", new JsonObject().put("a", 1), Era.LEGACY).result();
    assertThat(legacy.fieldNames()).containsExactly("content", "structuredContent");
  }

  @Test
  void aFailureThatIsNotAGramExceptionBecomesEInternalWithoutItsDetails() {
    GramException wrapped = new GramException(ErrorCode.E_ARGUMENT, "bad");
    assertThat(ToolResults.toolError("t", new java.util.concurrent.CompletionException(wrapped))).isSameAs(wrapped);
    GramException internal = ToolResults.toolError("t", new IllegalStateException("secret"));
    assertThat(internal.code()).isEqualTo(ErrorCode.E_INTERNAL);
    assertThat(internal.getMessage()).doesNotContain("secret");
  }
}
