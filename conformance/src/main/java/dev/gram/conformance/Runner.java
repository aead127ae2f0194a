package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The black-box conformance runner: connects to one MCP server (a command over stdio, a
 * Streamable HTTP URL or a legacy HTTP+SSE URL) in one protocol era, runs every case of the case
 * folder, and prints one line per case ({@code PASS name}, {@code FAIL name: why}, {@code SKIP
 * name: needs X}) and the closing line {@code N passed, N failed}. Exit status 0 only when nothing
 * failed. {@code conformance/README.md} describes the options and the case language.
 *
 * <p>It shares no code with the server and ships in its own jar ({@code
 * target/gram-conformance.jar}): the report goes to stdout, logs (and a child server's stderr) to
 * stderr.
 *
 * <p>Why one class of about 440 lines: the command line ({@link Options}, parse, usage) stays beside
 * the run loop it configures; one step's execution is {@link Step}.
 */
public final class Runner {
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

  /** Capabilities a server may provide; cases that need one are skipped unless it is given. */
  static final Set<String> KNOWN_NEEDS =
      Set.of("vault-dir", "ro-mount", "rw-mount", "commit-unknown", "corrupt-document");

  private Runner() {}

  /** What to run against and how. */
  public static final class Options {
    List<String> stdio;
    URI url;
    URI sse;
    Era era = Era.LEGACY;
    Path cases = Path.of("conformance", "cases");
    final List<String> only = new ArrayList<>();
    final Map<String, String> needs = new LinkedHashMap<>();
    final Map<String, String> headers = new LinkedHashMap<>();
    Path vaultDir;
    Path prepareVault;
    Duration timeout = Duration.ofSeconds(30);
    ProcessBuilder.Redirect serverStderr = ProcessBuilder.Redirect.INHERIT;

    /** A server started by the runner, speaking newline-delimited JSON-RPC on stdin/stdout. */
    public Options stdio(List<String> command) {
      this.stdio = List.copyOf(command);
      return this;
    }

    /** A Streamable HTTP endpoint such as {@code http://127.0.0.1:4726/mcp}. */
    public Options url(URI endpoint) {
      this.url = endpoint;
      return this;
    }

    /** A legacy HTTP+SSE stream such as {@code http://127.0.0.1:4726/sse} (legacy era only). */
    public Options sse(URI stream) {
      this.sse = stream;
      return this;
    }

    /** {@code legacy} or {@code 2026-07-28}. */
    public Options era(String flag) {
      this.era = Era.of(flag);
      return this;
    }

    public Options cases(Path dir) {
      this.cases = dir;
      return this;
    }

    /** Runs only cases whose name contains one of the given substrings. */
    public Options only(String substring) {
      this.only.add(substring);
      return this;
    }

    /** Declares that the server provides a capability (value may be null when it has none). */
    public Options need(String name, String value) {
      this.needs.put(name, value);
      return this;
    }

    /** The server's vault folder, which the runner may edit as another program would. */
    public Options vaultDir(Path dir) {
      this.vaultDir = dir;
      this.needs.put("vault-dir", dir.toString());
      return this;
    }

    /** An extra HTTP header on every request (for example {@code Authorization}). */
    public Options header(String name, String value) {
      this.headers.put(name, value);
      return this;
    }

    public Options timeout(Duration t) {
      this.timeout = t;
      return this;
    }

    /** Where a stdio server's stderr goes (the runner's stderr by default). */
    public Options serverStderr(ProcessBuilder.Redirect r) {
      this.serverStderr = r;
      return this;
    }

    String transport() {
      return stdio != null ? "stdio" : url != null ? "Streamable HTTP" : "HTTP+SSE";
    }
  }

  /**
   * The outcome of a run. {@code failures} holds the FAIL lines; {@code offered} the tools the
   * server listed (empty when it could not list them).
   */
  public record Summary(
      int passed, int failed, int skipped, List<String> failures, List<String> skips, Set<String> offered) {
    public boolean ok() {
      return failed == 0;
    }
  }

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8); // stdout-ok: the runner's report
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("conformance: " + e.getMessage());
      System.err.println(usage());
      System.exit(2);
      return;
    }
    if (o == null) {
      out.println(usage());
      return;
    }
    if (o.prepareVault != null) {
      try {
        Map<String, String> needs = Fixtures.write(o.prepareVault);
        StringBuilder line = new StringBuilder("--needs");
        needs.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        out.println("wrote " + String.join(" and ", needs.values()) + " under " + o.prepareVault);
        out.println("start the server so that its next commit to " + Fixtures.COMMIT_UNKNOWN
            + " answers COMMIT_UNKNOWN (if it can: a disk whose fsync fails), then run with");
        out.println(line);
      } catch (IOException e) {
        System.err.println("conformance: cannot write the fixtures: " + e.getMessage());
        System.exit(2);
      }
      return;
    }
    Summary s;
    try {
      s = run(o, out);
    } catch (IllegalArgumentException e) {
      System.err.println("conformance: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(s.ok() ? 0 : 1);
  }

  static String usage() {
    return String.join(
        "\n",
        "Usage: java -jar gram-conformance.jar",
        "         (--stdio \"<command>\" | --url http://host:port/mcp | --sse http://host:port/sse)",
        "         [--era legacy|2026-07-28] [--cases conformance/cases] [--only <name-substring>]...",
        "         [--needs <capability>[=<value>]...] [--vault-dir <dir>] [--header 'Name: value']...",
        "         [--timeout-seconds 30]",
        "       java -jar gram-conformance.jar --prepare-vault <vault-dir>",
        "         writes the commit-unknown and corrupt-document fixtures into a vault before its",
        "         server starts, and prints the --needs that name them",
        "",
        "Capabilities (see conformance/README.md for what a server must be started with):",
        "  ro-mount=<id>          a read-only mount at @mounts/<id>/",
        "  rw-mount=<id>          a writable mount at @mounts/<id>/",
        "  commit-unknown=<path>  an existing document whose next commit answers COMMIT_UNKNOWN",
        "  corrupt-document=<path> an existing document whose history fails its hash audit",
        "  vault-dir              given by --vault-dir: the runner may edit the vault as another program",
        "",
        "Prints PASS/FAIL/SKIP per case and finally `N passed, N failed`; exit status 0 only when",
        "nothing failed.");
  }

  static Options parse(String[] args) {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--help":
        case "-h":
          return null;
        case "--stdio":
          o.stdio(Words.split(value(args, ++i, a)));
          break;
        case "--url":
          o.url(URI.create(value(args, ++i, a)));
          break;
        case "--sse":
          o.sse(URI.create(value(args, ++i, a)));
          break;
        case "--era":
          o.era(value(args, ++i, a));
          break;
        case "--cases":
          o.cases(Path.of(value(args, ++i, a)));
          break;
        case "--only":
          o.only(value(args, ++i, a));
          break;
        case "--vault-dir":
          o.vaultDir(Path.of(value(args, ++i, a)));
          break;
        case "--header":
          String h = value(args, ++i, a);
          int colon = h.indexOf(':');
          if (colon <= 0) {
            throw new IllegalArgumentException("--header needs 'Name: value', not " + h);
          }
          o.header(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
          break;
        case "--prepare-vault":
          o.prepareVault = Path.of(value(args, ++i, a));
          break;
        case "--timeout-seconds":
          o.timeout(Duration.ofSeconds(Long.parseLong(value(args, ++i, a))));
          break;
        case "--needs":
          value(args, i + 1, a);
          while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
            String n = args[++i];
            int eq = n.indexOf('=');
            o.need(eq < 0 ? n : n.substring(0, eq), eq < 0 ? null : n.substring(eq + 1));
          }
          break;
        default:
          throw new IllegalArgumentException("unknown option " + a);
      }
    }
    return o;
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  /** Runs every selected case and prints the report to {@code out}. */
  public static Summary run(Options o, PrintStream out) {
    int targets = (o.stdio != null ? 1 : 0) + (o.url != null ? 1 : 0) + (o.sse != null ? 1 : 0);
    if (targets != 1) {
      throw new IllegalArgumentException("give exactly one of --stdio, --url and --sse");
    }
    if (o.sse != null && o.era == Era.MODERN) {
      throw new IllegalArgumentException("the HTTP+SSE transport exists only in the legacy era");
    }
    for (String n : o.needs.keySet()) {
      if (!KNOWN_NEEDS.contains(n)) {
        LOG.warn("no case of this runner knows the capability {}", n);
      }
    }
    List<Cases.CaseFile> files = Cases.load(o.cases);
    Map<String, JsonNode> runVars = new HashMap<>();
    String run = "cf" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
    runVars.put("run", TextNode.valueOf(run));
    o.needs.forEach((k, v) -> {
      if (v != null && !k.equals("vault-dir")) {
        runVars.put(k, TextNode.valueOf(v));
      }
    });

    List<String> failures = new ArrayList<>();
    List<String> skips = new ArrayList<>();
    int passed = 0;
    Set<String> missing = new LinkedHashSet<>();
    McpClient client = null;
    String openFailure = null;
    Set<String> offered = null;
    try {
      client = new McpClient(wire(o), o.era);
      LOG.info("running {} against {}, run id {}", o.cases, client.describe(), run);
      client.open();
      offered = client.toolNames();
    } catch (IOException | RuntimeException e) {
      openFailure = "cannot talk to the server: " + e.getMessage();
      LOG.error(openFailure);
    }
    try {
      for (Cases.CaseFile file : files) {
        Map<String, JsonNode> fileVars = null;
        String setupFailure = null;
        for (Cases.Case c : file.cases()) {
          if (!selected(o, c)) {
            continue;
          }
          List<String> lacking = new ArrayList<>();
          for (String n : c.needs()) {
            if (!o.needs.containsKey(n)) {
              lacking.add(n);
            }
          }
          if (!lacking.isEmpty()) {
            String line = "SKIP " + c.name() + ": needs " + String.join(", ", lacking);
            out.println(line);
            skips.add(line);
            missing.addAll(lacking);
            continue;
          }
          String failure = openFailure;
          if (failure == null && offered != null) {
            failure = missingTools(file, c, offered);
          }
          if (failure == null && fileVars == null) {
            fileVars = new HashMap<>(runVars);
            try {
              expandVars(file.vars(), fileVars);
              setupFailure = steps(client, o, file.setup(), fileVars, "setup ");
            } catch (Template.CaseError e) {
              setupFailure = "setup: case error: " + e.getMessage();
            }
          }
          if (failure == null) {
            failure = setupFailure;
          }
          if (failure == null) {
            failure = steps(client, o, c.steps(), new HashMap<>(fileVars), "");
          }
          if (failure == null) {
            out.println("PASS " + c.name());
            passed++;
          } else {
            String line = "FAIL " + c.name() + ": " + failure;
            out.println(line);
            failures.add(line);
          }
        }
      }
    } finally {
      if (client != null) {
        client.close();
      }
    }
    if (!skips.isEmpty()) {
      out.println(skips.size() + " skipped (not provided: " + String.join(", ", missing) + ")");
    }
    out.println(passed + " passed, " + failures.size() + " failed");
    return new Summary(
        passed, failures.size(), skips.size(), List.copyOf(failures), List.copyOf(skips),
        offered == null ? Set.of() : Set.copyOf(offered));
  }

  /** A case calling a tool the server does not list fails without being sent, saying which. */
  private static String missingTools(Cases.CaseFile file, Cases.Case c, Set<String> offered) {
    Set<String> missing = new LinkedHashSet<>();
    for (ArrayNode steps : List.of(file.setup(), c.steps())) {
      for (JsonNode s : steps) {
        if (s.has("call") && !offered.contains(s.get("call").asText())) {
          missing.add(s.get("call").asText());
        }
      }
    }
    return missing.isEmpty() ? null : "the server does not offer " + String.join(", ", missing);
  }

  private static boolean selected(Options o, Cases.Case c) {
    if (!c.runsIn(o.era)) {
      // A case of the other era is not this run's: neither run nor counted as skipped.
      return false;
    }
    if (o.only.isEmpty()) {
      return true;
    }
    for (String s : o.only) {
      if (c.name().contains(s)) {
        return true;
      }
    }
    return false;
  }

  private static Wire wire(Options o) throws IOException {
    if (o.stdio != null) {
      return new StdioWire(o.stdio, o.serverStderr, o.timeout);
    }
    if (o.url != null) {
      return new HttpWire(o.url, o.era, o.timeout, o.headers);
    }
    return new SseWire(o.sse, o.timeout, o.headers);
  }

  private static void expandVars(ObjectNode vars, Map<String, JsonNode> into) {
    for (Map.Entry<String, JsonNode> e : vars.properties()) {
      into.put(e.getKey(), Template.expand(e.getValue(), into));
    }
  }

  /** Runs steps in order; null when all passed, else which step failed and why. */
  private static String steps(McpClient client, Options o, ArrayNode steps, Map<String, JsonNode> vars, String prefix) {
    for (int i = 0; i < steps.size(); i++) {
      JsonNode s = steps.get(i);
      String what = prefix + "step " + (i + 1) + " (" + Step.describe(s) + ")";
      String failure;
      try {
        failure = new Step(client, o, vars).run(s);
      } catch (Template.CaseError e) {
        failure = "case error: " + e.getMessage();
      } catch (IOException e) {
        failure = "transport: " + e.getMessage();
      } catch (RuntimeException e) {
        LOG.error("{} broke the runner", what, e);
        failure = "runner error: " + e;
      }
      if (failure != null) {
        return what + ": " + failure;
      }
    }
    return null;
  }
}
