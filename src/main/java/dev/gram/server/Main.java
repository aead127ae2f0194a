package dev.gram.server;

import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code java -jar gram-mcp.jar}: parses the command line and runs the server until told to stop. */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {}

  public static void main(String[] args) {
    // stdout belongs to the stdio transport: usage and version go to stderr as well.
    PrintStream err = System.err;
    ServerConfig config;
    try {
      config = ServerConfig.parse(args, System.getenv());
    } catch (ServerConfig.UsageException e) {
      err.println("gram-mcp: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (config.help()) {
      err.print(ServerConfig.usage());
      return;
    }
    if (config.version()) {
      err.println("gram-mcp " + GramServer.version());
      return;
    }
    GramServer.start(config)
        .onSuccess(server -> server.stopped().onComplete(done -> System.exit(0)))
        .onFailure(
            e -> {
              LOG.error("gram-mcp could not start: {}", e.getMessage(), e);
              System.exit(1);
            });
  }
}
