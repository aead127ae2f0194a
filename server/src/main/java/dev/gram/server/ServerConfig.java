package dev.gram.server;

import dev.gram.tools.support.ToolSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The server's settings, from the command line (and {@code GRAM_MCP_TOKEN} for the bearer
 * token): what the rest of the server reads. The flags themselves are {@link ServeOptions}
 * (picocli); {@link #parse} never exits the JVM.
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
    boolean help,
    boolean version,
    Duration readDeadline,
    Duration checkpointLag,
    dev.gram.cluster.ClusterSettings cluster,
    Auth auth,
    int backgroundThreads) {

  /**
   * Who may call, and what the local caller may reach.
   *
   * @param agents the agents file ({@code --agents}), or null
   * @param approve what the local caller (stdio, and HTTP without credentials) may reach
   *     ({@code --approve}); empty is everything
   * @param oauthIssuer the OAuth issuer whose access tokens are taken ({@code --oauth-issuer}), or null
   * @param resource this server's canonical URI ({@code --resource}), required with an issuer
   * @param agentClaims the token claims that name an agent, first present wins
   */
  public record Auth(
      Path agents,
      List<dev.gram.access.Approval> approve,
      String oauthIssuer,
      String resource,
      List<String> agentClaims) {
    public static final Auth NONE = new Auth(null, List.of(), null, null, List.of());

    /** What the local caller may reach: everything, unless {@code --approve} narrowed it. */
    public dev.gram.access.Approvals localApprovals() {
      return approve.isEmpty() ? dev.gram.access.Approvals.EVERYTHING : dev.gram.access.Approvals.of(approve);
    }
  }

  public static final int DEFAULT_PORT = 4726;
  /** How long a reading tool may take before it answers {@code E_TIMEOUT}: the tools' default. */
  public static final Duration DEFAULT_READ_DEADLINE = ToolSettings.DEFAULT_READ_DEADLINE;
  public static final String TOKEN_ENV = "GRAM_MCP_TOKEN";
  /** How long a revision may sit in the write-ahead log before its file holds it. */
  public static final Duration DEFAULT_CHECKPOINT_LAG = Duration.ofSeconds(1);

  /** A folder mounted under {@code @mounts/<id>/}. */
  public record Mount(String id, Path root, boolean writable) {}

  /** A bad command line; the message says what is wrong. */
  public static final class UsageException extends Exception {
    public UsageException(String message) {
      super(message);
    }
  }

  /**
   * The same settings with the vault and the mounts on another file system (paths of the same
   * names there): tests run the server on a simulated disk. The index stays where it is.
   */
  public ServerConfig withVaultOn(java.nio.file.FileSystem fs) {
    List<Mount> moved = new java.util.ArrayList<>();
    for (Mount m : mounts) {
      moved.add(new Mount(m.id(), fs.getPath(m.root().toString()), m.writable()));
    }
    return new ServerConfig(fs.getPath(vault.toString()), List.copyOf(moved), index, stdio, http, host, port, token,
        allowedOrigins, maxBodyBytes, idleTimeout, semantic, welcome, help, version, readDeadline, checkpointLag,
        cluster, auth, backgroundThreads);
  }

  public static ServerConfig defaults() {
    try {
      return parse(new String[0], Map.of());
    } catch (UsageException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The options alone, as a command of their own: what {@link #parse} and {@link #usage} read. */
  @Command(name = "gram-mcp", mixinStandardHelpOptions = true, sortOptions = false)
  private static final class Flags {
    @Mixin ServeOptions options = new ServeOptions();
  }

  /**
   * The settings of {@code serve} from its flags: the same flags, values and messages as always
   * (the command line itself is {@code dev.gram.server.cli}, which shares {@link ServeOptions}).
   */
  public static ServerConfig parse(String[] args, Map<String, String> env) throws UsageException {
    Flags flags = new Flags();
    // A flag given twice takes its last value, as it always did.
    CommandLine cl = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
    try {
      cl.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new UsageException(plain(e) + " (try --help)");
    }
    return flags.options.toConfig(env, cl.isUsageHelpRequested(), cl.isVersionHelpRequested());
  }

  /** picocli's message for a bad command line, in the words this server always used. */
  public static String plain(CommandLine.ParameterException e) {
    String m = e.getMessage();
    if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String arg = u.getUnmatched().get(0);
      return (arg.startsWith("-") ? "unknown option " : "unexpected argument ") + arg;
    }
    java.util.regex.Matcher value = java.util.regex.Pattern.compile("Missing required parameter for option '([^']+)'").matcher(m);
    if (value.find()) {
      return value.group(1) + " needs a value";
    }
    java.util.regex.Matcher required = java.util.regex.Pattern.compile("Missing required options?:? '([^=']+)").matcher(m);
    if (required.find()) {
      return required.group(1) + " is required";
    }
    return m;
  }

  static int parseInt(String s, String option, int min, int max) throws UsageException {
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

  /** The flags' help, as {@code --help} prints it. */
  public static String usage() {
    return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
  }
}
