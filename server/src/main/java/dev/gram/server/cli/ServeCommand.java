package dev.gram.server.cli;

import dev.gram.server.ServeOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code serve}: the server, the same as running the jar with no command. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    header = "the server (the same as no command)",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    customSynopsis = "Usage: java -jar gram-mcp.jar serve [flags]",
    description = {
        "Serves the vault over stdio and HTTP at once until stdin closes or SIGTERM/SIGINT.",
        "Streamable HTTP at /mcp, legacy HTTP+SSE at /sse, /healthz and /metrics (Prometheus).",
        "Without --index the search index lives in <vault>/.gram-index (hidden, no backup needed).",
        "Exit status: 0 stopped (end of stdin, SIGTERM, SIGINT), 1 could not start, 2 bad command line.",
        ""})
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ServeOptions options;
  @Mixin LogOptions log;

  @Override
  public Integer call() {
    return Serving.run(spec, options);
  }
}
