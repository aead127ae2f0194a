package dev.gram.server.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A progress bar on stderr when stderr is a terminal, rewritten in place; otherwise a plain
 * percentage line every {@link #PLAIN_EVERY_MS}. Never stdout.
 */
final class TerminalProgress {
  static final long PLAIN_EVERY_MS = 5_000;
  private static final int WIDTH = 30;

  private final PrintStream err;
  private final boolean terminal;
  private final String what;
  private long lastPlain;
  private int lastPercent = -1;
  private boolean drawn;

  TerminalProgress(PrintStream err, String what) {
    this(err, stderrIsTerminal(), what);
  }

  TerminalProgress(PrintStream err, boolean terminal, String what) {
    this.err = err;
    this.terminal = terminal;
    this.what = what;
    this.lastPlain = System.currentTimeMillis();
  }

  void update(int done, int total) {
    int percent = total == 0 ? 100 : (int) (done * 100L / total);
    if (terminal) {
      if (percent != lastPercent) {
        int filled = percent * WIDTH / 100;
        err.print(String.format(Locale.ROOT, "\r%s [%s%s] %3d%% %,d/%,d", what, "#".repeat(filled),
            " ".repeat(WIDTH - filled), percent, done, total));
        err.flush();
        drawn = true;
      }
    } else if (System.currentTimeMillis() - lastPlain >= PLAIN_EVERY_MS && done < total) {
      err.println(String.format(Locale.ROOT, "%s: %d%% (%,d of %,d documents)", what, percent, done, total));
      lastPlain = System.currentTimeMillis();
    }
    lastPercent = percent;
  }

  /** Ends the bar's line, so what is printed next starts on its own. */
  void finish() {
    if (drawn) {
      err.println();
      drawn = false;
    }
  }

  /**
   * Whether stderr is a terminal. {@link System#console()} answers for stdin and stdout, so on
   * Linux the file behind descriptor 2 is asked.
   */
  static boolean stderrIsTerminal() {
    if (Files.exists(Path.of("/proc/self/fd"))) {
      try {
        String target = Path.of("/proc/self/fd/2").toRealPath().toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (Exception e) {
        return false;
      }
    }
    return System.console() != null;
  }
}
