package dev.gram.store;

import java.io.IOException;

/**
 * Another process holds the vault's write-ahead log: it serves this vault, and a second writer
 * on one log would replay and checkpoint records that are not its own.
 */
public final class VaultInUseException extends IOException {
  public VaultInUseException(String message) {
    super(message);
  }
}
