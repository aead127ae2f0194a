package dev.gram.server.cli;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Lets {@code java -jar gram-mcp.jar} (the README's command, and a sidecar's registration) start
 * with what the build's training run left beside the jar, which only a command-line option can
 * name: on JDK 25 or later an ahead-of-time cache ({@code gram-mcp.jar.aot}: the classes loaded and
 * linked, and the methods' profiles, so the JIT compiles the hot paths from the first calls); on
 * older JDKs a class-data archive ({@code gram-mcp.jar.jsa}: the classes only). When one is there
 * and newer than the jar, and this JVM was not already given one, the process replaces itself
 * ({@code execv}, the same pid, the same stdin and stdout) with the same command plus {@code
 * -XX:AOTCache} or {@code -XX:SharedArchiveFile} and JVM logging sent to stderr (the JVM's default
 * is stdout, which belongs to the stdio transport). This runs first thing in {@code main}, before
 * anything else loads.
 *
 * <p>Nothing happens on a platform without {@code execv} (Windows), with {@code GRAM_MCP_CDS=off},
 * for an archive older than the jar or written by another JVM or for the jar at another path (the
 * training run notes both in {@code gram-mcp.jar.aot.jvm} or {@code gram-mcp.jar.jsa.jvm}), or when
 * this JVM's own options already name an archive (the launcher script's, or a relaunched one). If
 * {@code execv} fails, this JVM simply goes on.
 */
final class ArchiveRelaunch {
  private ArchiveRelaunch() {}

  interface CLibrary extends Library {
    int execv(String path, String[] argv);
  }

  /** Which JVM wrote an archive: the file beside it that the training run writes. */
  static Path jvmFile(Path archive) {
    return archive.resolveSibling(archive.getFileName() + ".jvm");
  }

  /**
   * What an archive is good for, as precisely as the JVM checks it: this JVM's build and home, and
   * the jar's absolute path (the JVM refuses an archive of the same jar at another path).
   */
  static String jvm(Path jar) {
    return System.getProperty("java.vm.version") + " " + System.getProperty("java.home") + " "
        + jar.toAbsolutePath().normalize();
  }

  /**
   * The option that maps what the training run left beside {@code jar} for this JVM: its
   * ahead-of-time cache when there is a good one, else its class-data archive when there is a good
   * one, else nothing.
   */
  static Optional<String> archiveOption(Path jar) {
    if (Runtime.version().feature() >= 25 && madeForThisJvm(jar, aotCache(jar))) {
      return Optional.of("-XX:AOTCache=" + aotCache(jar));
    }
    if (madeForThisJvm(jar, classArchive(jar))) {
      return Optional.of("-XX:SharedArchiveFile=" + classArchive(jar));
    }
    return Optional.empty();
  }

  /** The ahead-of-time cache a JDK 25 training run writes beside the jar. */
  static Path aotCache(Path jar) {
    return jar.resolveSibling(jar.getFileName() + ".aot");
  }

  /** The class-data archive an older JDK's training run writes beside the jar. */
  static Path classArchive(Path jar) {
    return jar.resolveSibling(jar.getFileName() + ".jsa");
  }

  /**
   * Whether {@code archive} is newer than the jar and its note names this JVM and this jar: the JVM
   * refuses anything else, and this start would have paid for two JVMs for nothing.
   */
  private static boolean madeForThisJvm(Path jar, Path archive) {
    try {
      return Files.isRegularFile(archive)
          && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0
          && jvm(jar).equals(Files.readString(jvmFile(archive)).strip());
    } catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }

  /** Replaces this process when it should start with the archive; returns otherwise. */
  static void ifArchived() {
    if ("off".equals(System.getenv("GRAM_MCP_CDS"))
        || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).matches(".*(linux|mac).*")) {
      return;
    }
    Optional<String[]> argv = ProcessHandle.current().info().arguments();
    Optional<String> command = ProcessHandle.current().info().command();
    if (argv.isEmpty() || command.isEmpty()) {
      return;
    }
    List<String> args = List.of(argv.get());
    int jarAt = args.indexOf("-jar");
    if (jarAt < 0 || jarAt + 1 >= args.size()) {
      return;
    }
    for (String a : args.subList(0, jarAt)) {
      if (a.startsWith("-XX:SharedArchiveFile") || a.startsWith("-XX:ArchiveClassesAtExit") || a.startsWith("-Xshare")
          || a.startsWith("-XX:AOTCache") || a.startsWith("-XX:AOTMode") || a.startsWith("-XX:+AutoCreateSharedArchive")) {
        return;
      }
    }
    Path jar = Path.of(args.get(jarAt + 1));
    Optional<String> option = archiveOption(jar);
    if (option.isEmpty()) {
      return;
    }
    List<String> next = new ArrayList<>();
    next.add(command.get());
    next.addAll(args.subList(0, jarAt));
    next.add(option.get());
    next.add("-Xlog:disable");
    next.add("-Xlog:all=warning:stderr");
    next.addAll(args.subList(jarAt, args.size()));
    try {
      CLibrary c = Native.load("c", CLibrary.class);
      // Only returns when it failed; this JVM then serves as it is.
      c.execv(command.get(), next.toArray(String[]::new));
    } catch (Throwable e) {
      // no execv here: go on without the archive
    }
  }
}
