package dev.gram.server.cli;

import dev.gram.server.ServeOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top command: with no subcommand it serves, exactly as {@code serve} does. */
@Command(
    name = "gram-mcp",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Serves a vault of .gram documents to MCP clients over stdio and HTTP at once.",
    customSynopsis = {
        "",
        "Usage: java -jar gram-mcp.jar [serve] [flags]        the server (the default command)",
        "       java -jar gram-mcp.jar <command> --help       a command's own flags"},
    description = {"", "With no command it serves the vault, as 'serve' does, with these flags:"},
    footerHeading = "%n",
    footer = {
        "Without --index the search index lives in <vault>/.gram-index: a hidden folder",
        "that no listing shows, derived from the vault, needing no backup.",
        "Exit status: 0 done, 1 failed, 2 bad command line."},
    commandListHeading = "%nCommands:%n",
    subcommands = {
        ServeCommand.class,
        ValidateCommand.class,
        ReindexCommand.class,
        ImportCommand.class,
        ExportCommand.class,
        StatusCommand.class,
        AgentsCommand.class,
        TrainCommand.class})
final class GramCli implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ServeOptions options;
  @Mixin LogOptions log;

  @Override
  public Integer call() {
    return Serving.run(spec, options);
  }
}
