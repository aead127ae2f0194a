package dev.gram.index;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress of a long rebuild, on stderr: a line rewritten in place (count, rate, time left)
 * when stderr is a terminal, otherwise a log line every {@link #LOG_EVERY_MS}. Nothing is shown
 * for a burst shorter than {@link #SHOW_AFTER_MS}. Never stdout: stdout carries the stdio
 * transport.
 */
final class Progress {
  private static final Logger LOG = LoggerFactory.getLogger(Progress.class);

  static final long SHOW_AFTER_MS = 1_000;
  static final long LOG_EVERY_MS = 5_000;

  private final boolean terminal;
  private final PrintStream err;
  private final IntSupplier remaining;
  /** What is being done, as the line says it: indexing … documents, embedding … documents. */
  private final String doing;
  private final String did;
  private long burstStart = -1;
  private int doneAtBurstStart;
  private int done;
  private long lastShown;
  private boolean shown;

  Progress(IntSupplier remaining) {
    this(stderrIsTerminal(), System.err, remaining);
  }

  Progress(boolean terminal, PrintStream err, IntSupplier remaining) {
    this(terminal, err, remaining, "indexing", "indexed");
  }

  /** A progress line of another pass: {@code doing} and {@code did} are its verb ("embedding"). */
  Progress(IntSupplier remaining, String doing, String did) {
    this(stderrIsTerminal(), System.err, remaining, doing, did);
  }

  Progress(boolean terminal, PrintStream err, IntSupplier remaining, String doing, String did) {
    this.terminal = terminal;
    this.err = err;
    this.remaining = remaining;
    this.doing = doing;
    this.did = did;
  }

  /**
   * Whether stderr is a terminal. {@link System#console()} answers for stdin and stdout, which
   * are pipes under the stdio transport, so on Linux the file behind descriptor 2 is asked.
   */
  static boolean stderrIsTerminal() {
    Path fd2 = Path.of("/proc/self/fd/2");
    if (Files.exists(Path.of("/proc/self/fd"))) {
      try {
        String target = fd2.toRealPath().toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (Exception e) {
        return false;
      }
    }
    return System.console() != null;
  }

  /** One more document done by the rebuild thread. */
  synchronized void step() {
    long now = System.currentTimeMillis();
    if (burstStart < 0) {
      burstStart = now;
      doneAtBurstStart = done;
    }
    done++;
  }

  /** Called periodically: shows progress, or closes the burst once the queue is empty. */
  synchronized void tick() {
    if (burstStart < 0) {
      return;
    }
    long now = System.currentTimeMillis();
    int left = remaining.getAsInt();
    int count = done - doneAtBurstStart;
    long elapsed = Math.max(1, now - burstStart);
    if (left == 0) {
      if (shown || elapsed >= SHOW_AFTER_MS) {
        String line = String.format(Locale.ROOT, "%s %,d documents in %.1f s", did, count, elapsed / 1000.0);
        if (terminal) {
          err.print("\r\033[Kgram-mcp: " + line + "\n");
          err.flush();
        } else {
          LOG.info(line);
        }
      }
      burstStart = -1;
      shown = false;
      return;
    }
    if (elapsed < SHOW_AFTER_MS) {
      return;
    }
    double rate = count * 1000.0 / elapsed;
    String eta = rate > 0 ? String.format(Locale.ROOT, "%,d s left", Math.round(left / rate)) : "…";
    String line =
        String.format(Locale.ROOT, "%s %,d/%,d documents, %.0f/s, %s", doing, count, count + left, rate, eta);
    if (terminal) {
      err.print("\r\033[Kgram-mcp: " + line);
      err.flush();
      shown = true;
    } else if (!shown || now - lastShown >= LOG_EVERY_MS) {
      LOG.info(line);
      shown = true;
      lastShown = now;
    }
  }
}
