package dev.gram.server.cli;

import dev.gram.testing.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the built jar as a user would, {@code java -jar gram-mcp.jar <args>}, in a folder. */
final class Cli {
  /** How a run ended: its exit status and everything it wrote. */
  record Run(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private Cli() {}

  static Run run(Path workDir, String... args) {
    List<String> cmd = new ArrayList<>(List.of(ServerProcess.java(), "-jar", ServerProcess.jar().toString()));
    cmd.addAll(Arrays.asList(args));
    try {
      Path out = Files.createTempFile(workDir, "out", ".txt");
      Path err = Files.createTempFile(workDir, "err", ".txt");
      Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
          .start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("still running after 120 s: " + cmd + "\n" + Files.readString(err));
      }
      Run r = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
