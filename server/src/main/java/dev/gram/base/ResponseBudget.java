package dev.gram.base;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * The contract's response budget: no tool answer is larger than {@link #BYTES} bytes of compact
 * UTF-8 JSON. Tools page with cursors to stay under it; the protocol layer checks every answer
 * again and turns an oversized one into {@link ErrorCode#E_CONTEXT_BUDGET}.
 */
public final class ResponseBudget {
  private ResponseBudget() {}

  /** {@code budget_bytes} in {@code gram_capabilities} and {@code gram_profile}. */
  public static final int BYTES = 16_384;

  /** The size of the answer as a client receives it in the text content. */
  public static int sizeOf(JsonObject answer) {
    return sizeOf(answer.encode());
  }

  /** The size in UTF-8 bytes of an answer already encoded as compact JSON. */
  public static int sizeOf(String encodedAnswer) {
    return encodedAnswer.getBytes(StandardCharsets.UTF_8).length;
  }

  public static boolean fits(JsonObject answer) {
    return sizeOf(answer) <= BYTES;
  }
}
