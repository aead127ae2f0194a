package dev.gram.tools.support;

import dev.gram.base.CompactJson;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import io.vertx.core.json.JsonObject;

/**
 * The answer budget ({@link ResponseBudget#BYTES} bytes of compact JSON) as the tools spend it.
 * Tools that list things add items while the answer still fits and hand out a cursor for the
 * rest; a single item that cannot fit on its own is {@code E_CONTEXT_BUDGET}. Every size is
 * measured the way {@link ResponseBudget} measures a whole answer.
 */
public final class Budget {
  private Budget() {}

  /** Bytes of the compact JSON of a value (an object, an array, a string, a number…). */
  public static int size(Object json) {
    return ResponseBudget.sizeOf(CompactJson.encode(json));
  }

  /**
   * Room left for a list's items: the budget minus the answer without them and a margin for the
   * cursor the answer may need to carry.
   */
  public static int room(JsonObject answerWithoutItems) {
    return ResponseBudget.BYTES - ResponseBudget.sizeOf(answerWithoutItems) - 256;
  }

  /** Fails with E_CONTEXT_BUDGET when one item alone cannot fit. */
  public static GramException tooLarge(String what) {
    return new GramException(
        ErrorCode.E_CONTEXT_BUDGET,
        what + " does not fit the " + ResponseBudget.BYTES + "-byte answer budget; ask for fewer fields or a section");
  }

  public static boolean fits(JsonObject answer) {
    return ResponseBudget.fits(answer);
  }
}
