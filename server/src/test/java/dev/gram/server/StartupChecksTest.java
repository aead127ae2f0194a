package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each start-up problem is found before anything is written, and said in one sentence. */
class StartupChecksTest {
  @TempDir Path dir;

  private ServerConfig config(String... args) throws Exception {
    return ServerConfig.parse(args, Map.of());
  }

  @Test
  void aFreshVaultStartsWithoutWarnings() throws Exception {
    assertThat(StartupChecks.check(config("--vault", dir.resolve("v").toString(), "--port", "0"))).isEmpty();
    assertThat(dir.resolve("v")).doesNotExist();
  }

  @Test
  void pathsThatAreFilesAndATakenPortAreFatal() throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x");
    assertThatThrownBy(() -> StartupChecks.check(config("--vault", file.toString())))
        .hasMessage("the vault " + file + " is a file, not a folder: give --vault a folder");
    assertThatThrownBy(() -> StartupChecks.check(config("--vault", dir.toString(), "--index", file.toString())))
        .hasMessageStartingWith("the search index path " + file + " is a file, not a folder");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> StartupChecks.check(config("--vault", dir.toString(), "--no-stdio", "--port", "" + port)))
          .hasMessageStartingWith("cannot listen on 127.0.0.1:" + port + ": address already in use");
      // With stdio on, a taken port only turns HTTP off (a sidecar must still serve its runtime).
      assertThat(StartupChecks.check(config("--vault", dir.toString(), "--port", "" + port))).isEmpty();
    }
  }

  @Test
  void anUnwritableVaultIsAWarning() throws Exception {
    assumeFalse("root".equals(System.getProperty("user.name")), "root writes anywhere");
    Path vault = Files.createDirectories(dir.resolve("ro"));
    Files.setPosixFilePermissions(vault, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assertThat(StartupChecks.check(config("--vault", vault.toString(), "--index", dir.resolve("i").toString())))
          .singleElement().asString().contains("is not writable", "E_STORAGE");
      assertThatThrownBy(() -> StartupChecks.check(config("--vault", vault.resolve("sub").toString())))
          .hasMessageContaining("cannot create the vault");
    } finally {
      Files.setPosixFilePermissions(vault, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }
}
