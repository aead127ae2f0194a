package dev.gram.server;

import dev.gram.tools.support.ToolSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's settings, from the command line (and {@code GRAM_MCP_TOKEN} for the bearer
 * token). {@link #parse} never exits the JVM; {@link Main} decides what to do with {@link
 * #help()} and with a {@link UsageException}.
 */
public record ServerConfig(
    Path vault,
    List<Mount> mounts,
    Path index,
    boolean stdio,
    boolean http,
    String host,
    int port,
    String token,
    List<String> allowedOrigins,
    long maxBodyBytes,
    Duration idleTimeout,
    boolean semantic,
    boolean welcome,
    List<String> injectCommitUnknown,
    boolean help,
    boolean version,
    Duration readDeadline) {

  public static final int DEFAULT_PORT = 4726;
  /** How long a reading tool may take before it answers {@code E_TIMEOUT}: the tools' default. */
  public static final Duration DEFAULT_READ_DEADLINE = ToolSettings.DEFAULT_READ_DEADLINE;
  public static final String TOKEN_ENV = "GRAM_MCP_TOKEN";

  /** A folder mounted under {@code @mounts/<id>/}. */
  public record Mount(String id, Path root, boolean writable) {}

  /** A bad command line; the message says what is wrong. */
  public static final class UsageException extends Exception {
    public UsageException(String message) {
      super(message);
    }
  }

  public static ServerConfig defaults() {
    return new ServerConfig(
        Path.of("vault"),
        List.of(),
        Path.of("index"),
        true,
        true,
        "127.0.0.1",
        DEFAULT_PORT,
        null,
        List.of(),
        4L * 1024 * 1024,
        Duration.ofMinutes(5),
        true,
        true,
        List.of(),
        false,
        false,
        DEFAULT_READ_DEADLINE);
  }

  public static ServerConfig parse(String[] args, Map<String, String> env) throws UsageException {
    Path vault = Path.of("vault");
    List<Mount> mounts = new ArrayList<>();
    Path index = null;
    boolean stdio = true;
    boolean http = true;
    String host = "127.0.0.1";
    int port = DEFAULT_PORT;
    String token = env.get(TOKEN_ENV);
    List<String> origins = new ArrayList<>();
    long maxBody = 4L * 1024 * 1024;
    Duration idle = Duration.ofMinutes(5);
    boolean semantic = true;
    boolean welcome = true;
    boolean help = false;
    boolean version = false;
    List<String> faults = new ArrayList<>();
    Duration readDeadline = DEFAULT_READ_DEADLINE;
    Args in = new Args(args);
    while (in.hasNext()) {
      String a = in.nextOption();
      switch (a) {
        case "--help", "-h" -> help = true;
        case "--version" -> version = true;
        case "--vault" -> vault = Path.of(in.value(a));
        case "--index" -> index = Path.of(in.value(a));
        case "--mount" -> mounts.add(parseMount(in.value(a)));
        case "--stdio" -> stdio = true;
        case "--no-stdio" -> stdio = false;
        case "--http" -> http = true;
        case "--no-http" -> http = false;
        case "--host" -> host = in.value(a);
        case "--port" -> port = parseInt(in.value(a), a, 0, 65535);
        case "--token" -> token = in.value(a);
        case "--allow-origin" -> origins.add(in.value(a));
        case "--max-body-bytes" -> maxBody = parseInt(in.value(a), a, 1024, Integer.MAX_VALUE);
        case "--idle-timeout-seconds" ->
            idle = Duration.ofSeconds(parseInt(in.value(a), a, 1, 86_400));
        case "--semantic" -> semantic = true;
        case "--no-semantic" -> semantic = false;
        case "--no-welcome" -> welcome = false;
        case "--inject-commit-unknown" -> faults.add(in.value(a));
        case "--read-deadline-ms" ->
            readDeadline = Duration.ofMillis(parseInt(in.value(a), a, 1, 600_000));
        default -> throw new UsageException("unknown option " + a + " (try --help)");
      }
      in.noUnusedInlineValue(a);
    }
    if (!stdio && !http && !help && !version) {
      throw new UsageException("both transports are off: keep --stdio or --http");
    }
    if (http && !isLoopback(host) && (token == null || token.isBlank())) {
      throw new UsageException(
          "--host "
              + host
              + " is not a loopback address: give a bearer token with --token or "
              + TOKEN_ENV);
    }
    if (index == null) {
      index = Path.of("index");
    }
    return new ServerConfig(
        vault,
        List.copyOf(mounts),
        index,
        stdio,
        http,
        host,
        port,
        token,
        List.copyOf(origins),
        maxBody,
        idle,
        semantic,
        welcome,
        List.copyOf(faults),
        help,
        version,
        readDeadline);
  }

  /** Walks {@code --key value} and {@code --key=value} options. */
  private static final class Args {
    private final String[] args;
    private int next;
    private String inline;

    Args(String[] args) {
      this.args = args;
    }

    boolean hasNext() {
      return next < args.length;
    }

    String nextOption() {
      String a = args[next++];
      inline = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        inline = a.substring(eq + 1);
        return a.substring(0, eq);
      }
      return a;
    }

    String value(String option) throws UsageException {
      if (inline != null) {
        String v = inline;
        inline = null;
        return v;
      }
      if (next >= args.length || args[next].startsWith("--")) {
        throw new UsageException(option + " needs a value");
      }
      return args[next++];
    }

    void noUnusedInlineValue(String option) throws UsageException {
      if (inline != null) {
        throw new UsageException(option + " takes no value");
      }
    }
  }

  private static int parseInt(String s, String option, int min, int max) throws UsageException {
    try {
      int v = Integer.parseInt(s);
      if (v < min || v > max) {
        throw new UsageException(option + " must be between " + min + " and " + max);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new UsageException(option + " needs a number, not " + s);
    }
  }

  static Mount parseMount(String spec) throws UsageException {
    // <id>=<folder>[:ro|:rw]
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new UsageException("--mount needs <id>=<folder>[:ro|:rw], not " + spec);
    }
    String id = spec.substring(0, eq);
    String rest = spec.substring(eq + 1);
    boolean writable = false;
    if (rest.endsWith(":rw")) {
      writable = true;
      rest = rest.substring(0, rest.length() - 3);
    } else if (rest.endsWith(":ro")) {
      rest = rest.substring(0, rest.length() - 3);
    }
    if (!id.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
      throw new UsageException("mount id " + id + " must be letters, digits, - or _");
    }
    if (rest.isEmpty()) {
      throw new UsageException("--mount " + spec + " names no folder");
    }
    return new Mount(id, Path.of(rest), writable);
  }

  static boolean isLoopback(String host) {
    return host.equals("127.0.0.1")
        || host.equals("localhost")
        || host.equals("::1")
        || host.equals("[::1]")
        || host.startsWith("127.");
  }

  public static String usage() {
    return String.join(
        "\n",
        "Usage: java -jar gram-mcp.jar [options]",
        "",
        "Serves a vault of .gram documents to MCP clients over stdio and HTTP at once.",
        "",
        "Vault",
        "  --vault <dir>              the vault folder (default ./vault; created with a welcome",
        "                             document when missing)",
        "  --mount <id>=<dir>[:ro|:rw] mount another folder at @mounts/<id>/ (read-only unless :rw);",
        "                             repeatable",
        "  --index <dir>              where the derived search index lives (default ./index)",
        "  --no-welcome               do not write the welcome document into a new vault",
        "  --semantic | --no-semantic semantic search on (the default) or off; gram_capabilities",
        "                             says which, and why when it is unavailable",
        "  --read-deadline-ms <n>     longest a reading tool may run before it answers E_TIMEOUT",
        "                             (default " + DEFAULT_READ_DEADLINE.toMillis() + ")",
        "",
        "Transports (both on by default)",
        "  --stdio | --no-stdio       newline-delimited JSON-RPC on stdin/stdout; the server exits",
        "                             when stdin closes",
        "  --http | --no-http         Streamable HTTP at /mcp and legacy HTTP+SSE at /sse",
        "  --host <addr>              HTTP bind address (default 127.0.0.1)",
        "  --port <n>                 HTTP port (default " + DEFAULT_PORT + "; 0 picks a free one)",
        "  --token <secret>           bearer token required on every HTTP request but /healthz",
        "                             (also " + TOKEN_ENV + ");",
        "                             required when --host is not a loopback address",
        "  --allow-origin <origin>    an extra browser Origin to accept (its host is then also",
        "                             accepted in Host); repeatable. Loopback origins always are",
        "  --max-body-bytes <n>       largest HTTP request body (default 4194304)",
        "  --idle-timeout-seconds <n> close idle HTTP connections after n seconds (default 300)",
        "",
        "Testing",
        "  --inject-commit-unknown <path>  the next commit to that document loses its folder fsync",
        "                             and answers COMMIT_UNKNOWN (to test retries); repeatable",
        "",
        "  --help                     print this and exit",
        "  --version                  print the version and exit",
        "");
  }
}
