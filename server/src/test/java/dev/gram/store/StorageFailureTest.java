package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/** E_STORAGE's message names the cause, not only the file. */
class StorageFailureTest {
  @Test
  void theCauseOfAFailedCommitIsInTheMessage() {
    assertThat(StoreErrors.cause(new AccessDeniedException("/v/a/.a.gram.tmp-1")))
        .isEqualTo("permission denied writing /v/a/.a.gram.tmp-1 (the server's user cannot write to the vault)");
    assertThat(StoreErrors.cause(new FileSystemException("/v/a.gram", null, "No space left on device")))
        .isEqualTo("No space left on device: /v/a.gram");
    assertThat(StoreErrors.cause(new IOException("disk on fire"))).isEqualTo("disk on fire");
  }
}
