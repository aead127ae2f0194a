package dev.gram.server;

import dev.gram.cluster.ClusterSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The flags of {@code serve} (and of the bare {@code java -jar gram-mcp.jar}), as picocli options.
 * Every flag of the hand-written parser this replaces is here with the same name, value and
 * default; {@code --x} / {@code --no-x} pairs are setter methods so that the last one written
 * wins, as before. {@link #toConfig} checks what picocli cannot and builds the {@link
 * ServerConfig} the server reads.
 */
public final class ServeOptions {
  /** Where the index goes without {@code --index}: inside the vault, hidden from every listing. */
  public static final String DEFAULT_INDEX_FOLDER = ".gram-index";

  @Option(names = "--vault", paramLabel = "<dir>", order = 1,
      description = "the vault folder (default ./vault; created with a welcome document when missing)")
  Path vault = Path.of("vault");

  @Option(names = "--mount", paramLabel = "<id>=<dir>[:ro|:rw]", order = 2,
      description = "mount another folder at @mounts/<id>/ (read-only unless :rw); repeatable")
  List<String> mounts = new ArrayList<>();

  @Option(names = "--index", paramLabel = "<dir>", order = 3,
      description = "where the derived search index lives (default <vault>/" + DEFAULT_INDEX_FOLDER
          + ", a hidden folder no listing shows; from a checkout, --index index)")
  Path index;

  @Option(names = "--no-welcome", order = 4,
      description = "do not write the welcome document into a new vault")
  boolean noWelcome;

  boolean semantic = true;

  @Option(names = "--semantic", order = 5,
      description = "semantic search on (the default); gram_capabilities says why when it is unavailable")
  void semantic(boolean on) {
    semantic = true;
  }

  @Option(names = "--no-semantic", order = 6, description = "semantic search off")
  void noSemantic(boolean on) {
    semantic = false;
  }

  @Option(names = "--read-deadline-ms", paramLabel = "<n>", order = 7,
      description = "longest a reading tool may run before it answers E_TIMEOUT (default 15000)")
  String readDeadlineMs;

  @Option(names = "--checkpoint-lag-ms", paramLabel = "<n>", order = 8,
      description = "longest a write stays only in the write-ahead log before its .gram file holds it"
          + " (default 1000); a file over 256 KiB waits this once per 256 KiB, at most 30 times")
  String checkpointLagMs;

  @Option(names = "--background-threads", paramLabel = "<n>", order = 9,
      description = "threads the server's own background work may keep busy: computing vectors,"
          + " indexing at start, merging the index (default half the cores, at least 1); it runs at"
          + " low CPU priority and gives way to tool calls in flight")
  String backgroundThreads;

  boolean stdio = true;

  @Option(names = "--stdio", order = 10,
      description = "newline-delimited JSON-RPC on stdin/stdout (on by default); the server exits when stdin closes")
  void stdio(boolean on) {
    stdio = true;
  }

  @Option(names = "--no-stdio", order = 11, description = "no stdio transport")
  void noStdio(boolean on) {
    stdio = false;
  }

  boolean http = true;

  @Option(names = "--http", order = 12,
      description = "Streamable HTTP at /mcp and legacy HTTP+SSE at /sse (on by default)")
  void http(boolean on) {
    http = true;
  }

  @Option(names = "--no-http", order = 13, description = "no HTTP transport")
  void noHttp(boolean on) {
    http = false;
  }

  @Option(names = "--host", paramLabel = "<addr>", order = 14,
      description = "HTTP bind address (default 127.0.0.1)")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "<n>", order = 15,
      description = "HTTP port (default " + ServerConfig.DEFAULT_PORT + "; 0 picks a free one)")
  String port;

  @Option(names = "--token", paramLabel = "<secret>", order = 16,
      description = "one shared bearer token for every HTTP request but /healthz (also "
          + ServerConfig.TOKEN_ENV + "): its holder reaches everything and is named by its client."
          + " A non-loopback --host needs this, --agents or --oauth-issuer")
  String token;

  @Option(names = "--agents", paramLabel = "<file>", order = 25,
      description = "the agents file: each agent's name, its token's digest and its approvals; HTTP requests"
          + " must carry an agent's token (create it with 'gram-mcp agents add'); re-read every second")
  Path agents;

  @Option(names = "--approve", paramLabel = "<folder>=read|write", order = 26,
      description = "narrow the local caller (stdio, and HTTP without --token/--agents/--oauth-issuer) to this"
          + " folder (* for all); repeatable. Without it the local caller reaches everything")
  List<String> approve = new ArrayList<>();

  @Option(names = "--oauth-issuer", paramLabel = "<url>", order = 27,
      description = "take OAuth 2.1 access tokens from this issuer (its metadata discovered, its keys fetched);"
          + " needs --resource")
  String oauthIssuer;

  @Option(names = "--resource", paramLabel = "<url>", order = 28,
      description = "this server's canonical URI as clients reach it (e.g. https://gram.example.com/mcp):"
          + " tokens must name it in aud")
  String resource;

  @Option(names = "--oauth-agent-claim", paramLabel = "<claim>", order = 29, split = ",",
      description = "the token claims that name the agent, first present wins (default client_id,azp,sub)")
  List<String> agentClaims = new ArrayList<>();

  @Option(names = "--allow-origin", paramLabel = "<origin>", order = 17,
      description = "an extra browser Origin to accept (its host is then also accepted in Host); "
          + "repeatable. Loopback origins always are")
  List<String> origins = new ArrayList<>();

  @Option(names = "--max-body-bytes", paramLabel = "<n>", order = 18,
      description = "largest HTTP request body (default 4194304)")
  String maxBodyBytes;

  @Option(names = "--idle-timeout-seconds", paramLabel = "<n>", order = 19,
      description = "close idle HTTP connections after n seconds (default 300)")
  String idleTimeoutSeconds;

  @Option(names = "--cluster", order = 20,
      description = "serve the vault as one node of a cluster (Vert.x on Hazelcast): each document is"
          + " written by one owner node, every node reads and searches all of them; see docs/cluster.md")
  boolean cluster;

  @Option(names = "--cluster-members", paramLabel = "<host:port>", order = 21, split = ",",
      description = "other nodes to find the cluster through (TCP/IP, no multicast); with --cluster")
  List<String> clusterMembers = new ArrayList<>();

  @Option(names = "--cluster-host", paramLabel = "<addr>", order = 22,
      description = "address this node listens on for the other nodes (default 127.0.0.1)")
  String clusterHost;

  @Option(names = "--cluster-port", paramLabel = "<n>", order = 23,
      description = "Hazelcast port of this node (default " + ClusterSettings.DEFAULT_PORT
          + "); the event bus takes a free port beside it")
  String clusterPort;

  @Option(names = "--cluster-node", paramLabel = "<name>", order = 24,
      description = "this node's name, stable across restarts: its write-ahead log and index are its own"
          + " (default <cluster-host>-<cluster-port>)")
  String clusterNode;

  /** The settings these flags and {@code env} ({@code GRAM_MCP_TOKEN}) describe. */
  public ServerConfig toConfig(Map<String, String> env, boolean help, boolean version)
      throws ServerConfig.UsageException {
    List<ServerConfig.Mount> ms = new ArrayList<>();
    for (String m : mounts) {
      ms.add(ServerConfig.parseMount(m));
    }
    int p = port == null ? ServerConfig.DEFAULT_PORT : ServerConfig.parseInt(port, "--port", 0, 65535);
    long maxBody = maxBodyBytes == null
        ? 4L * 1024 * 1024
        : ServerConfig.parseInt(maxBodyBytes, "--max-body-bytes", 1024, Integer.MAX_VALUE);
    Duration idle = idleTimeoutSeconds == null
        ? Duration.ofMinutes(5)
        : Duration.ofSeconds(ServerConfig.parseInt(idleTimeoutSeconds, "--idle-timeout-seconds", 1, 86_400));
    Duration deadline = readDeadlineMs == null
        ? ServerConfig.DEFAULT_READ_DEADLINE
        : Duration.ofMillis(ServerConfig.parseInt(readDeadlineMs, "--read-deadline-ms", 1, 600_000));
    Duration lag = checkpointLagMs == null
        ? ServerConfig.DEFAULT_CHECKPOINT_LAG
        : Duration.ofMillis(ServerConfig.parseInt(checkpointLagMs, "--checkpoint-lag-ms", 1, 3_600_000));
    int background = backgroundThreads == null
        ? dev.gram.async.Background.defaultThreads()
        : ServerConfig.parseInt(backgroundThreads, "--background-threads", 1, 256);
    String tok = token != null ? token : env.get(ServerConfig.TOKEN_ENV);
    if (!stdio && !http && !help && !version) {
      throw new ServerConfig.UsageException("both transports are off: keep --stdio or --http");
    }
    ServerConfig.Auth auth = auth();
    boolean credentials = (tok != null && !tok.isBlank()) || auth.agents() != null || auth.oauthIssuer() != null;
    if (http && !ServerConfig.isLoopback(host) && !credentials) {
      throw new ServerConfig.UsageException(
          "--host " + host + " is not a loopback address: give callers credentials with --agents, --oauth-issuer"
              + " or --token (" + ServerConfig.TOKEN_ENV + ")");
    }
    ClusterSettings clusterSettings = clusterSettings();
    return new ServerConfig(
        vault,
        List.copyOf(ms),
        index != null
            ? index
            : clusterSettings == null ? defaultIndex(vault) : clusterIndex(vault, clusterSettings.node()),
        stdio,
        http,
        host,
        p,
        tok,
        List.copyOf(origins),
        maxBody,
        idle,
        semantic,
        !noWelcome,
        help,
        version,
        deadline,
        lag,
        clusterSettings,
        auth,
        background);
  }

  private ServerConfig.Auth auth() throws ServerConfig.UsageException {
    List<dev.gram.access.Approval> approvals = new ArrayList<>();
    for (String a : approve) {
      try {
        approvals.add(dev.gram.access.Approval.parse(a));
      } catch (IllegalArgumentException e) {
        throw new ServerConfig.UsageException("--approve: " + e.getMessage());
      }
    }
    if ((oauthIssuer == null) != (resource == null)) {
      throw new ServerConfig.UsageException("--oauth-issuer and --resource go together: the issuer whose tokens are"
          + " taken, and this server's URI that they must name");
    }
    if (oauthIssuer != null) {
      absoluteUrl(oauthIssuer, "--oauth-issuer");
      absoluteUrl(resource, "--resource");
    }
    if (!agentClaims.isEmpty() && oauthIssuer == null) {
      throw new ServerConfig.UsageException("--oauth-agent-claim needs --oauth-issuer");
    }
    List<String> claims = agentClaims.isEmpty() ? dev.gram.auth.OAuthSettings.DEFAULT_AGENT_CLAIMS : List.copyOf(agentClaims);
    return new ServerConfig.Auth(agents, List.copyOf(approvals), oauthIssuer, resource, claims);
  }

  private static void absoluteUrl(String url, String option) throws ServerConfig.UsageException {
    try {
      java.net.URI u = new java.net.URI(url);
      if (!("https".equals(u.getScheme()) || "http".equals(u.getScheme())) || u.getHost() == null
          || u.getFragment() != null) {
        throw new ServerConfig.UsageException(option + " needs an absolute http(s) URL without a fragment, not " + url);
      }
    } catch (java.net.URISyntaxException e) {
      throw new ServerConfig.UsageException(option + " needs an absolute http(s) URL, not " + url);
    }
  }

  private ClusterSettings clusterSettings() throws ServerConfig.UsageException {
    if (!cluster) {
      if (!clusterMembers.isEmpty() || clusterHost != null || clusterPort != null || clusterNode != null) {
        throw new ServerConfig.UsageException("--cluster-members, --cluster-host, --cluster-port and --cluster-node"
            + " need --cluster");
      }
      return null;
    }
    String h = clusterHost == null ? "127.0.0.1" : clusterHost;
    int p = clusterPort == null
        ? ClusterSettings.DEFAULT_PORT
        : ServerConfig.parseInt(clusterPort, "--cluster-port", 1, 65535);
    List<String> members = new ArrayList<>();
    for (String m : clusterMembers) {
      String t = m.trim();
      int colon = t.lastIndexOf(':');
      if (t.isEmpty() || colon <= 0) {
        throw new ServerConfig.UsageException("--cluster-members needs host:port[,host:port...], not " + m);
      }
      ServerConfig.parseInt(t.substring(colon + 1), "--cluster-members port", 1, 65535);
      members.add(t);
    }
    String node = clusterNode == null ? ClusterSettings.defaultNode(h, p) : clusterNode;
    if (!node.matches("[A-Za-z0-9._-]{1,64}") || node.startsWith(".")) {
      throw new ServerConfig.UsageException("--cluster-node must be 1 to 64 letters, digits, '.', '_' or '-', not "
          + node);
    }
    return new ClusterSettings(h, p, members, node, ClusterSettings.DEFAULT_REPLICATION_TIMEOUT);
  }

  /** A cluster node's index given no {@code --index}: its own folder, since every node keeps one. */
  public static Path clusterIndex(Path vault, String node) {
    return vault.resolve(DEFAULT_INDEX_FOLDER + "-nodes").resolve(node);
  }

  /** The index of a vault given no {@code --index}: a hidden folder inside it. */
  public static Path defaultIndex(Path vault) {
    return vault.resolve(DEFAULT_INDEX_FOLDER);
  }
}
