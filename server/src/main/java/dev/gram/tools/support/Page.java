package dev.gram.tools.support;

import dev.gram.base.ResponseBudget;
import io.vertx.core.json.JsonObject;

/**
 * Room left in one answer while rows are added to it. Starts from the answer without its rows
 * and keeps {@link #RESERVE} bytes for the cursor an unfinished page carries.
 */
public final class Page {
  /** Bytes kept for a continuation cursor and its key. */
  public static final int RESERVE = 600;

  private int left;

  public Page(JsonObject answerWithoutRows) {
    this.left = ResponseBudget.BYTES - ResponseBudget.sizeOf(answerWithoutRows) - RESERVE;
  }

  /** Takes room for one more element of a JSON array (its size and a comma) if it fits. */
  public boolean take(Object json) {
    return takeBytes(Budget.size(json) + 1);
  }

  public boolean takeBytes(int n) {
    if (n > left) {
      return false;
    }
    left -= n;
    return true;
  }

  public int left() {
    return left;
  }
}
