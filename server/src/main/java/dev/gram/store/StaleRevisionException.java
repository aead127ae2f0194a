package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;

/**
 * {@code STALE_REVISION}: a write found the document other than its caller saw it — a create found
 * a document already there, another program changed the file, or the caller's base revision or
 * hash is not the current one. The store says what it found; the tools turn it into the details a
 * client recovers from (the current revision and hash, and what changed since the base).
 */
public final class StaleRevisionException extends GramException {
  private final transient DocSnapshot current;
  private final Integer baseRevision;

  /**
   * @param current the document as the write found it, or {@code null} when there is none
   * @param baseRevision the caller's base revision when the conflict is measured from it, or
   *     {@code null} when only the current revision matters (a create, or a file changed under the
   *     write)
   */
  public StaleRevisionException(String message, DocSnapshot current, Integer baseRevision) {
    super(ErrorCode.STALE_REVISION, message);
    this.current = current;
    this.baseRevision = baseRevision;
  }

  /** The document as the write found it, or {@code null}. */
  public DocSnapshot current() {
    return current;
  }

  /** The caller's base revision when the conflict is measured from it, else {@code null}. */
  public Integer baseRevision() {
    return baseRevision;
  }
}
