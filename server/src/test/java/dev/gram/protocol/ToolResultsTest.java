package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import io.vertx.core.json.JsonObject;
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

  @Test
  void anAnswerOfExactlyTheBudgetIsServedAndOneByteMoreIsNot() {
    JsonObject fits = results.answer("t", answerOf(ResponseBudget.BYTES, "x"), Era.LEGACY);
    assertThat(fits.containsKey("isError")).isFalse();
    assertThat(fits.getJsonObject("structuredContent").getString("t")).hasSize(ResponseBudget.BYTES - 8);

    JsonObject over = results.answer("t", answerOf(ResponseBudget.BYTES + 1, "x"), Era.LEGACY);
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
    JsonObject over = results.answer("t", answer, Era.LEGACY);
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

    JsonObject legacy = results.answer("t", new JsonObject().put("a", 1), Era.LEGACY);
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
