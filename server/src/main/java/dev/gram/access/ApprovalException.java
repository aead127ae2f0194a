package dev.gram.access;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;

/**
 * A path refused because the caller's approvals do not reach it: {@code E_PATH} with the
 * contract's "Path is outside the approved folders" when the caller may not read it (the same
 * answer whether or not anything is there, so nothing is learned from it), {@code E_READ_ONLY}
 * when it may read but not write there. {@link #reason} is what metrics and logs count it as.
 */
public final class ApprovalException extends GramException {
  /** The contract's E_PATH message, the same as for a path that leaves the vault. */
  public static final String OUTSIDE = "Path is outside the approved folders";

  /** E_READ_ONLY for a read-only approval, in the contract's words for the code. */
  public static final String READ_ONLY =
      "Approval is read-only. Reads may continue; a write requires an already-authorized writable scope";

  private final String reason;

  private ApprovalException(ErrorCode code, String message, JsonObject details, String reason) {
    super(code, message, details);
    this.reason = reason;
  }

  /** The caller may not read {@code path}: no details, nothing to learn. */
  public static ApprovalException outside() {
    return new ApprovalException(ErrorCode.E_PATH, OUTSIDE, null, "outside_approvals");
  }

  /** The caller may read {@code path} but not write it. */
  public static ApprovalException readOnly(String path) {
    return new ApprovalException(ErrorCode.E_READ_ONLY, READ_ONLY, new JsonObject().put("path", path), "read_only");
  }

  /** {@code outside_approvals} or {@code read_only}: the label metrics and logs use. */
  public String reason() {
    return reason;
  }
}
