package dev.gram.soak;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One LazyFS file system mounted over a backing folder: every byte written through the mount
 * stays in LazyFS's own cache until an fsync of its file, so dropping that cache ({@link
 * #clearCache}) or killing LazyFS (an armed {@link #armCrash crash fault}, or {@link #unmount})
 * does to the mount what a power cut does to a disk. Folder operations (create, rename, unlink)
 * go straight to the backing folder; LazyFS does not model them.
 *
 * <p>Commands go through LazyFS's FIFO, one line per write (it reads at most 100 bytes at a time,
 * so a command must be shorter), and LazyFS answers only in its log, which is read from the
 * offset where the command was sent.
 */
final class LazyFs {
  private static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(30);
  private static final int MAX_COMMAND = 99;

  private final Path binary;
  private final Path mount;
  private final Path backing;
  private final Path config;
  private final Path fifo;
  private final Path log;
  private final Path output;
  private Process process;

  /**
   * @param logOperations whether LazyFS logs every operation (what {@link OpLog} reads)
   */
  LazyFs(Path binary, Path mount, Path backing, Path work, boolean logOperations) throws IOException {
    this.binary = binary;
    // The kernel lists mounts by their normalized absolute path.
    this.mount = Files.createDirectories(mount).toAbsolutePath().normalize();
    this.backing = Files.createDirectories(backing).toAbsolutePath().normalize();
    work = Files.createDirectories(work).toAbsolutePath().normalize();
    Path cfg = work.resolve("lazyfs.toml");
    // LazyFS ignores a config path that contains "-o" (it takes it for an option).
    this.config = cfg.toString().contains("-o") ? Files.createTempFile(Path.of("/tmp"), "gram-lazyfs", ".toml") : cfg;
    this.fifo = work.resolve("faults.fifo");
    this.log = work.resolve("lazyfs.log");
    this.output = work.resolve("lazyfs.out");
    Files.writeString(config, """
        [faults]
        fifo_path="%s"
        [cache]
        apply_eviction=false
        [cache.simple]
        custom_size="1gb"
        blocks_per_page=1
        [filesystem]
        log_all_operations=%s
        logfile="%s"
        """.formatted(fifo, logOperations, log));
    if (!Files.exists(fifo)) {
      run(List.of("mkfifo", fifo.toString()));
    }
  }

  Path mount() {
    return mount;
  }

  Path backing() {
    return backing;
  }

  /** Mounts LazyFS (a fresh process, so an empty cache and no armed fault) and waits for it. */
  void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("LazyFS is already mounted on " + mount);
    }
    Files.deleteIfExists(log);
    process = new ProcessBuilder(binary.toString(), mount.toString(), "--config-path", config.toString(),
        "-o", "allow_other", "-o", "modules=subdir", "-o", "subdir=" + backing, "-f")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
        .start();
    long deadline = System.nanoTime() + MOUNT_TIMEOUT.toNanos();
    while (!(mounted() && logText(0).contains("waiting for fault commands"))) {
      if (!process.isAlive()) {
        throw new IOException("LazyFS exited with status " + process.exitValue() + " before mounting " + mount
            + "; see " + output);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("LazyFS did not mount " + mount + " within " + MOUNT_TIMEOUT + "; see " + output);
      }
      pause(20);
    }
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** Drops every byte not yet fsynced, as a power cut would, and waits until LazyFS says it did. */
  void clearCache() throws IOException {
    long from = logLength();
    command("lazyfs::clear-cache");
    awaitLog(from, "cache is cleared", Duration.ofSeconds(30));
  }

  /**
   * Arms a crash fault: LazyFS kills itself {@code timing} ("before" or "after") the first
   * {@code op} whose path matches {@code from} (and, for rename and link, whose new path matches
   * {@code to}; {@code null} for other operations). LazyFS puts {@code .*} on both sides of each
   * regular expression.
   */
  void armCrash(String timing, String op, String from, String to) throws IOException {
    String command = "lazyfs::crash::timing=" + timing + "::op=" + op + "::from_rgx=" + from
        + (to == null ? "" : "::to_rgx=" + to);
    long before = logLength();
    command(command);
    String said = awaitLog(before, "crash fault", Duration.ofSeconds(10));
    if (said.contains("INVALID")) {
      throw new IOException("LazyFS refused " + command + "; see " + log);
    }
  }

  /** Kills LazyFS (SIGKILL): its cache, every byte not yet fsynced, is gone, as in a power cut. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Waits until LazyFS has died (a crash fault fired); false when it is still alive. */
  boolean awaitDeath(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Unmounts; when LazyFS is still alive it exits without writing its cache anywhere, so whatever
   * was not fsynced is gone. Lazy (detaching) because a dead LazyFS leaves a mount whose every
   * operation answers "Transport endpoint is not connected".
   */
  void unmount() throws IOException {
    if (mounted()) {
      run(List.of("fusermount3", "-u", "-z", mount.toString()));
    }
    if (process != null) {
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    long deadline = System.nanoTime() + MOUNT_TIMEOUT.toNanos();
    while (mounted()) {
      if (System.nanoTime() > deadline) {
        throw new IOException(mount + " is still mounted");
      }
      pause(20);
    }
  }

  /** Unmounts a LazyFS left mounted by an earlier run that did not finish. */
  static void unmountIfMounted(Path mount) throws IOException {
    if (mounted(mount)) {
      run(List.of("fusermount3", "-u", "-z", mount.toString()));
    }
  }

  /** What LazyFS logged from byte {@code from} on. */
  String logText(long from) throws IOException {
    if (!Files.exists(log)) {
      return "";
    }
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long length = f.length();
      if (from >= length) {
        return "";
      }
      byte[] bytes = new byte[(int) Math.min(length - from, 1 << 20)];
      f.seek(from);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** LazyFS's log: its answers to commands and, when operations are logged, every operation. */
  Path log() {
    return log;
  }

  private long logLength() throws IOException {
    return Files.exists(log) ? Files.size(log) : 0;
  }

  private void command(String line) throws IOException {
    if (line.length() > MAX_COMMAND) {
      throw new IllegalArgumentException("LazyFS reads commands of at most " + MAX_COMMAND + " characters: " + line);
    }
    if (!alive()) {
      throw new IOException("LazyFS is not running, cannot send " + line);
    }
    // LazyFS holds the FIFO open for reading and writing, so this open never blocks.
    Files.writeString(fifo, line + "\n", StandardCharsets.UTF_8);
  }

  /** Waits for {@code text} in what LazyFS logs from byte {@code from} on; returns that line. */
  private String awaitLog(long from, String text, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pos = from;
    while (true) {
      String said = logText(pos);
      int at = said.indexOf(text);
      if (at >= 0) {
        int lineStart = said.lastIndexOf('\n', at) + 1;
        int lineEnd = said.indexOf('\n', at);
        return said.substring(lineStart, lineEnd < 0 ? said.length() : lineEnd);
      }
      // Keep a line's worth, in case the text is being written across this read.
      int lastLine = said.lastIndexOf('\n');
      if (lastLine >= 0) {
        pos += said.substring(0, lastLine + 1).getBytes(StandardCharsets.UTF_8).length;
      }
      if (!alive() || System.nanoTime() > deadline) {
        throw new IOException("LazyFS did not log '" + text + "'" + (alive() ? " within " + timeout : " (it exited)")
            + "; see " + log);
      }
      pause(10);
    }
  }

  private boolean mounted() throws IOException {
    return mounted(mount);
  }

  private static boolean mounted(Path mount) throws IOException {
    String target = " " + mount.toAbsolutePath().normalize() + " ";
    return Files.readAllLines(Path.of("/proc/self/mounts")).stream().anyMatch(l -> l.contains(target));
  }

  private static void run(List<String> command) throws IOException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException(String.join(" ", command) + " failed: " + out.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException(e));
    }
  }
}
