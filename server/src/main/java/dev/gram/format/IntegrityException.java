package dev.gram.format;

/** A history that does not hold together: a broken chain, a truncation, or a delta that lies. */
public final class IntegrityException extends Exception {
  private final int revision;

  public IntegrityException(int revision, String message) {
    super(message, null, false, false);
    this.revision = revision;
  }

  /** The first revision found wrong. */
  public int revision() {
    return revision;
  }
}
