package dev.gram.server.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * {@code java -jar gram-mcp.jar [command] [flags]}: serves the vault (no command, or {@code
 * serve}) or runs one of the operator's commands. Exit status: 0 done, 1 failed (a document that
 * does not verify, a server that could not start), 2 a bad command line. Help and the version go
 * to stdout; errors are one line on stderr, never a stack trace.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // First, before anything loads: a JVM started without the trained class-data archive
    // replaces itself with one that maps it.
    ArchiveRelaunch.ifArchived();
    int status = run(args);
    // The JVM's shutdown hooks include ONNX Runtime's, which frees the native environment: never
    // while the embedding model is still being created with it.
    dev.gram.index.EmbeddingModel.awaitLoadIfStarted(java.time.Duration.ofSeconds(20));
    System.exit(status);
  }

  /** Runs the command line and returns the exit status (serve returns when the server stopped). */
  static int run(String[] args) {
    CommandLine cl = command();
    return cl.execute(args);
  }

  static CommandLine command() {
    CommandLine cl = new CommandLine(new GramCli());
    // A flag given twice takes its last value, as it always did.
    cl.setOverwrittenOptionsAllowed(true);
    cl.setOut(new PrintWriter(System.out, true));
    cl.setErr(new PrintWriter(System.err, true));
    cl.setUsageHelpLongOptionsMaxWidth(28);
    cl.setParameterExceptionHandler((e, a) -> {
      e.getCommandLine().getErr().println("gram-mcp: " + dev.gram.server.ServerConfig.plain(e) + " (try "
          + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
      return Exit.USAGE;
    });
    cl.setExecutionExceptionHandler((e, c, p) -> {
      c.getErr().println("gram-mcp: " + Exit.describe(e));
      return Exit.FAILED;
    });
    return cl;
  }
}
