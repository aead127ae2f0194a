package dev.gram.server.cli;

import dev.gram.server.ServeOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code reindex}: rebuilds the derived search index of a vault from its documents. */
@Command(
    name = "reindex",
    mixinStandardHelpOptions = true,
    header = "rebuild the derived search index from the vault",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Rebuilds the search index of the vault from its documents, with a progress bar on stderr",
        "(a percentage line every 5 s when stderr is not a terminal), and says how long it took.",
        "Embedding vectors are computed by the server in the background when it next starts.",
        "Stop the server first: a running server keeps its index up to date itself.",
        "Exit status: 0 rebuilt, 1 could not (the index is in use, say), 2 bad command line.",
        ""})
final class ReindexCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin VaultArg vault;
  @Mixin LogOptions log;

  @Option(names = "--index", paramLabel = "<dir>",
      description = "the index folder (default <vault>/" + ServeOptions.DEFAULT_INDEX_FOLDER + ")")
  Path index;

  @Override
  public Integer call() throws Exception {
    LogOptions.defaultTo("warn");
    Path root = vault.existing();
    Path dir = (index == null ? ServeOptions.defaultIndex(root) : index).toAbsolutePath().normalize();
    PrintWriter err = spec.commandLine().getErr();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      err.println("gram-mcp: the index path " + dir + " is a file, not a folder");
      return Exit.FAILED;
    }
    if (IndexAccess.inUse(dir)) {
      err.println("gram-mcp: the index " + dir + " is in use by a running server; stop it first"
          + " (a running server keeps its index up to date itself)");
      return Exit.FAILED;
    }
    int total = VaultFiles.list(root).documents().size();
    TerminalProgress bar = new TerminalProgress(System.err, "reindex");
    IndexAccess.Rebuilt r;
    try {
      r = IndexAccess.rebuild(root, dir, total, bar::update);
    } finally {
      bar.finish();
    }
    err.println(String.format(Locale.ROOT, "reindex: %,d document%s indexed%s in %.1f s; index at %s", r.indexed(),
        r.indexed() == 1 ? "" : "s", r.failed() > 0 ? ", " + r.failed() + " could not be parsed (run validate)" : "",
        r.millis() / 1000.0, dir));
    err.flush();
    return r.failed() == 0 ? Exit.OK : Exit.FAILED;
  }
}
