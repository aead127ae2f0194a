package dev.gram.tools.support;

import dev.gram.base.ErrorCode;
import dev.gram.base.ResponseBudget;
import dev.gram.tools.support.GramContext;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * The 16,384-byte answer budget. Tools that list things add items while the answer still fits
 * and hand out a cursor for the rest; a single item that cannot fit on its own is {@code
 * E_CONTEXT_BUDGET}.
 */
public final class Budget {
  private Budget() {}

  /** Bytes of the compact JSON of a value. */
  public static int size(Object json) {
    String s =
        json instanceof JsonObject o
            ? o.encode()
            : json instanceof JsonArray a ? a.encode() : io.vertx.core.json.Json.encode(json);
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * Room left for a list's items: the budget minus the answer without them and a margin for the
   * cursor the answer may need to carry.
   */
  public static int room(JsonObject answerWithoutItems) {
    return ResponseBudget.BYTES - size(answerWithoutItems) - 256;
  }

  /** Fails with E_CONTEXT_BUDGET when one item alone cannot fit. */
  public static GramException tooLarge(String what) {
    return new GramException(
        ErrorCode.E_CONTEXT_BUDGET,
        what + " does not fit the " + ResponseBudget.BYTES + "-byte answer budget; ask for fewer fields or a section");
  }

  public static boolean fits(JsonObject answer) {
    return size(answer) <= ResponseBudget.BYTES;
  }
}
