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
 * with the class-data archive the build trained ({@code gram-mcp.jar.jsa} beside the jar), which
 * only a command-line option can name. When the archive is there and newer than the jar, and this
 * JVM was not already given an archive, the process replaces itself ({@code execv}, the same pid,
 * the same stdin and stdout) with the same command plus {@code -XX:SharedArchiveFile} and JVM
 * logging sent to stderr (the JVM's default is stdout, which belongs to the stdio transport).
 * This runs first thing in {@code main}, before anything else loads.
 *
 * <p>Nothing happens on a platform without {@code execv} (Windows), with {@code GRAM_MCP_CDS=off},
 * for an archive older than the jar or written by another JVM or for the jar at another path (the
 * training run notes both in {@code gram-mcp.jar.jsa.jvm}), or when this JVM's own options already name an archive (the
 * launcher script's, or a relaunched one). If {@code execv} fails, this JVM simply goes on.
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
    Path archive = jar.resolveSibling(jar.getFileName() + ".jsa");
    try {
      // An archive is only good for the JVM that wrote it and the jar where it was: otherwise the
      // JVM refuses it, and this start would have paid for two JVMs for nothing.
      if (!Files.isRegularFile(archive)
          || Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) <= 0
          || !jvm(jar).equals(Files.readString(jvmFile(archive)).strip())) {
        return;
      }
    } catch (java.io.IOException | RuntimeException e) {
      return;
    }
    List<String> next = new ArrayList<>();
    next.add(command.get());
    next.addAll(args.subList(0, jarAt));
    next.add("-XX:SharedArchiveFile=" + archive);
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
