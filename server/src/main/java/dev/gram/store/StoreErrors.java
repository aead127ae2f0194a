package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The store's words for what went wrong in a write: the contract's codes and messages. */
final class StoreErrors {
  private static final Logger LOG = LoggerFactory.getLogger(StoreErrors.class);

  static final String STALE_BASE = "Accepted revision or hash changed";
  static final String STALE_EXTERNAL = "Artifact changed during transaction";
  static final String CREATE_EXISTS = "Create target already exists";
  static final String UNKNOWN = "Replacement published but durability is uncertain: ";

  private StoreErrors() {}

  /** Nothing was written: the disk refused (full, read-only, gone). */
  static GramException storageFailure(IOException e) {
    LOG.warn("commit failed: {}", e.toString());
    return new GramException(ErrorCode.E_STORAGE, "Storage commit failed: " + cause(e));
  }

  /** The write may or may not survive: a retry with the same request_id settles it. */
  static GramException commitUnknown(String why) {
    return new GramException(ErrorCode.COMMIT_UNKNOWN, UNKNOWN + why);
  }

  /**
   * What went wrong, in words an agent can pass on: an AccessDeniedException's message is only
   * the file's name, which said nothing about the missing permission.
   */
  static String cause(IOException e) {
    if (e instanceof AccessDeniedException a) {
      return "permission denied writing " + a.getFile() + " (the server's user cannot write to the vault)";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason() + ": " + f.getFile();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** Whether a caller's expected hash (16 hex or more) is the start of the document's hash. */
  static boolean hashMatches(String expected, String fullHash) {
    if (expected == null || fullHash == null) {
      return false;
    }
    String e = expected.trim().toLowerCase(Locale.ROOT);
    return e.length() >= 16 && fullHash.startsWith(e);
  }
}
