package dev.gram.async;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the calling thread's CPU priority, so the kernel runs it only on CPU the foreground does
 * not want. On Linux each thread has a nice value of its own: {@code setpriority(PRIO_PROCESS,
 * tid, NICE)} (through JNA, since Java 17 cannot make the call) applies to that thread alone, and
 * the threads it creates afterwards inherit it. Elsewhere, or when the call fails, the thread
 * gets Java's lowest priority, which most JVMs ignore: the cooperative yielding of {@link
 * Foreground} still applies.
 *
 * <p>A thread cannot take its priority back (raising it needs a privilege), so only threads that
 * never do foreground work may be lowered, and they must not create threads that will.
 */
final class LowPriority {
  private static final Logger LOG = LoggerFactory.getLogger(LowPriority.class);

  /**
   * The nice value of background threads. At 19 a thread weighs 15 against 1,024 for a thread at
   * 0: when both want a core, the foreground gets 98.5 % of it, and a woken foreground thread
   * preempts the background one at once instead of waiting for its time slice to end.
   */
  static final int NICE = 19;

  private static final int PRIO_PROCESS = 0;

  private LowPriority() {}

  /** The C library's call, loaded on first use (JNA extracts its native part then). */
  interface CLibrary extends Library {
    int setpriority(int which, int who, int prio);
  }

  private static final class Holder {
    static final CLibrary C = load();

    private static CLibrary load() {
      if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
        return null;
      }
      try {
        return Native.load("c", CLibrary.class);
      } catch (Throwable e) {
        LOG.debug("background threads keep their priority: {}", e.toString());
        return null;
      }
    }
  }

  /** Lowers the calling thread; true when the operating system took it. */
  static boolean lowerCurrentThread() {
    Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
    CLibrary c = Holder.C;
    if (c == null) {
      return false;
    }
    try {
      int tid = currentTid();
      return tid > 0 && c.setpriority(PRIO_PROCESS, tid, NICE) == 0;
    } catch (Throwable e) {
      LOG.debug("thread {} keeps its priority: {}", Thread.currentThread().getName(), e.toString());
      return false;
    }
  }

  /** The kernel's id of the calling thread: {@code /proc/thread-self} links to {@code <pid>/task/<tid>}. */
  static int currentTid() {
    try {
      Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Integer.parseInt(link.getFileName().toString());
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }
}
