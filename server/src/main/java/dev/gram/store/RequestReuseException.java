package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;

/**
 * {@code E_REQUEST_REUSE}: the request_id of a patch is already bound to another intent, in this
 * document or another. Says where the id was used, so the tools can tell the client.
 */
public final class RequestReuseException extends GramException {
  /** The contract's message for a request_id already bound to another intent. */
  public static final String MESSAGE = "request_id belongs to another intent";

  private final String usedPath;
  private final Integer usedRevision;

  /**
   * @param usedPath the document the id was used in, or {@code null} when that is not known
   * @param usedRevision the revision it committed, or {@code null} while that write is in flight
   */
  public RequestReuseException(String message, String usedPath, Integer usedRevision) {
    super(ErrorCode.E_REQUEST_REUSE, message);
    this.usedPath = usedPath;
    this.usedRevision = usedRevision;
  }

  /** The document the id was used in, or {@code null}. */
  public String usedPath() {
    return usedPath;
  }

  /** The revision the id committed, or {@code null} while its write is in flight (or unknown). */
  public Integer usedRevision() {
    return usedRevision;
  }
}
