package dev.gram.base;

import io.vertx.core.json.JsonObject;

/**
 * A failure the caller can act on, raised by whichever layer finds it: a path that leaves the
 * vault ({@code store}), a patch that does not apply ({@code edit}), a cursor that went stale
 * ({@code tools}). It carries the contract's {@link ErrorCode}, the contract's message, and, where
 * the caller needs them to recover, details such as the current {@code rev} and {@code hash} of a
 * document.
 *
 * <p>Raising an error is each layer's business; shaping it for a client (a tool result with
 * {@code isError: true}) belongs to the tools and protocol layers. No stack trace is filled in:
 * these are answers, not bugs.
 *
 * <p>A layer may subclass it to hand the layer above typed facts instead of client JSON (the
 * store's {@code StaleRevisionException} carries the document as it is now, and the tools turn
 * it into the contract's details).
 */
public class GramException extends RuntimeException {
  private final ErrorCode code;
  private final JsonObject details;

  public GramException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public GramException(ErrorCode code, String message, JsonObject details) {
    super(message, null, false, false);
    this.code = code;
    this.details = details;
  }

  public ErrorCode code() {
    return code;
  }

  /** Details for the caller, or {@code null} when there are none. */
  public JsonObject details() {
    return details;
  }
}
