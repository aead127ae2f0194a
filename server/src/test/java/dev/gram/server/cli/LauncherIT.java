package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.server.BuildInfo;
import dev.gram.testing.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/gram-mcp finds the jar beside it or in ../target and passes every argument on. */
class LauncherIT {
  @TempDir Path dir;

  private static Path script() {
    // Failsafe runs in the server module; the script is at the repository's root.
    Path s = Path.of("..", "bin", "gram-mcp").toAbsolutePath().normalize();
    assertThat(s).exists();
    return s;
  }

  private String[] run(Path launcher, String... args) throws Exception {
    String[] cmd = new String[args.length + 2];
    cmd[0] = "sh";
    cmd[1] = launcher.toString();
    System.arraycopy(args, 0, cmd, 2, args.length);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("GRAM_MCP_JAVA", ServerProcess.java());
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new String[] {Integer.toString(p.exitValue()),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)};
  }

  @Test
  void theLauncherRunsTheJarFromACheckoutAndFromBesideIt() throws Exception {
    Path checkout = dir.resolve("checkout");
    Files.createDirectories(checkout.resolve("bin"));
    Files.createDirectories(checkout.resolve("target"));
    Path launcher = Files.copy(script(), checkout.resolve("bin/gram-mcp"));
    String[] missing = run(launcher, "--version");
    assertThat(missing[0]).isEqualTo("1");
    assertThat(missing[2]).contains("no gram-mcp.jar", "mvn -B -q -DskipTests package");

    Files.createSymbolicLink(checkout.resolve("target/gram-mcp.jar"), ServerProcess.jar().toAbsolutePath());
    String[] version = run(launcher, "--version");
    assertThat(version[0]).as(version[2]).isEqualTo("0");
    assertThat(version[1].strip()).isEqualTo("gram-mcp " + BuildInfo.version());
    // The first run left a class-data archive beside the jar; the next one maps it, and stdout
    // still carries nothing but the answer.
    assertThat(checkout.resolve("target/gram-mcp.jar.jsa")).exists();
    String[] again = run(launcher, "--version");
    assertThat(again[0]).as(again[2]).isEqualTo("0");
    assertThat(again[1]).isEqualTo(version[1]);

    Path installed = Files.createDirectories(dir.resolve("opt/bin"));
    Path beside = Files.copy(script(), installed.resolve("gram-mcp"));
    Files.createSymbolicLink(installed.resolve("gram-mcp.jar"), ServerProcess.jar().toAbsolutePath());
    String[] usage = run(beside, "validate", "--vault", "no such vault");
    assertThat(usage[0]).isEqualTo("2");
    assertThat(usage[2]).contains("no vault at").contains("no such vault");
  }
}
