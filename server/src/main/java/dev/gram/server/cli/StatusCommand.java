package dev.gram.server.cli;

import dev.gram.server.ServeOptions;
import dev.gram.server.ServerConfig;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code status}: a vault's or a running server's state at a glance. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    header = "a vault's or a running server's state at a glance",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Shows a vault at a glance (documents, records, revisions, size on disk, last write, what",
        "its search index holds, whether semantic search works here) or asks a running server",
        "(--url) for its health, index state, semantic search, sessions and write queue.",
        "Exit status: 0 shown, 1 the server could not be reached, 2 bad command line.",
        ""})
final class StatusCommand implements Callable<Integer> {
  /** Exactly one of --vault and --url. */
  static final class Target {
    @Option(names = "--vault", paramLabel = "<dir>", required = true, description = "the vault folder")
    Path vault;

    @Option(names = "--url", paramLabel = "<url>", required = true,
        description = "a running server, e.g. http://127.0.0.1:" + ServerConfig.DEFAULT_PORT)
    String url;
  }

  @Spec CommandSpec spec;
  @Mixin LogOptions log;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(names = "--index", paramLabel = "<dir>",
      description = "the vault's index folder (default <vault>/" + ServeOptions.DEFAULT_INDEX_FOLDER + ")")
  Path index;

  @Option(names = "--token", paramLabel = "<secret>", description = "bearer token for --url (also " + ServerConfig.TOKEN_ENV + ")")
  String token;

  @Option(names = "--no-semantic", description = "do not load the embedding model to tell whether semantic search works")
  boolean noSemantic;

  @Option(names = "--json", description = "print one JSON object instead")
  boolean json;

  @Override
  public Integer call() throws Exception {
    LogOptions.defaultTo("error");
    PrintWriter out = spec.commandLine().getOut();
    JsonObject report;
    if (target.url != null) {
      try {
        report = server(new ServerProbe(target.url, token != null ? token : System.getenv(ServerConfig.TOKEN_ENV)).probe());
      } catch (java.io.IOException e) {
        spec.commandLine().getErr().println("gram-mcp: cannot reach " + target.url + ": " + Exit.describe(e));
        return Exit.FAILED;
      }
    } else {
      VaultArg v = new VaultArg();
      v.spec = spec;
      v.vault = target.vault;
      report = vault(v.existing());
    }
    if (json) {
      out.println(report.encodePrettily());
    } else {
      for (Map.Entry<String, Object> e : report) {
        if (!(e.getValue() instanceof JsonObject)) {
          out.println(String.format("%-11s%s", e.getKey(), e.getValue()));
        }
      }
    }
    out.flush();
    return Exit.OK;
  }

  private JsonObject vault(Path root) throws Exception {
    Path dir = (index == null ? ServeOptions.defaultIndex(root) : index).toAbsolutePath().normalize();
    VaultSummary s = VaultSummary.of(root);
    IndexAccess.Held held = IndexAccess.read(root, dir);
    String semantic = noSemantic ? "not probed (--no-semantic)" : IndexAccess.semantic(root);
    String indexState = !held.exists() ? "none yet at " + dir + " (built when the server starts, or by reindex)"
        : held.inUse() ? "in use by a running server at " + dir + " (ask it: status --url)"
        : held.documents() + " of " + s.documents() + " documents, " + VaultSummary.size(VaultSummary.folderBytes(dir))
            + " at " + dir + (held.documents() == s.documents() ? "" : " (the server catches up when it starts)");
    return new JsonObject()
        .put("vault", root.toString())
        .put("documents", s.documents() + (s.unreadable() > 0 ? " (" + s.unreadable() + " do not parse: run validate)" : ""))
        .put("records", s.records())
        .put("revisions", s.revisions())
        .put("size", VaultSummary.size(s.bytes()) + " in .gram files")
        .put("last write", s.lastWrite() == null ? "never" : s.lastWrite().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " (" + s.lastPath() + ")")
        .put("index", indexState)
        .put("semantic", semantic)
        .put("counts", new JsonObject().put("documents", s.documents()).put("unreadable", s.unreadable())
            .put("records", s.records()).put("revisions", s.revisions()).put("bytes", s.bytes())
            .put("indexed", held.documents()).put("indexBytes", VaultSummary.folderBytes(dir)));
  }

  private static JsonObject server(ServerProbe.Report r) {
    JsonObject idx = r.capabilities().getJsonObject("index", new JsonObject());
    JsonObject sem = r.capabilities().getJsonObject("semantic", new JsonObject());
    Map<String, Double> m = r.metrics();
    return new JsonObject()
        .put("server", r.base() + " (gram-mcp " + r.version() + ")")
        .put("health", r.health())
        .put("auth", r.auth())
        .put("index", idx.getInteger("indexedFiles", 0) + " documents indexed, " + idx.getInteger("pendingFiles", 0)
            + " pending, " + idx.getInteger("failedFiles", 0) + " failed, " + idx.getInteger("embeddedChunks", 0)
            + " chunks embedded")
        .put("semantic", "available".equals(sem.getString("status")) ? "available"
            : "unavailable: " + sem.getString("reason", "?"))
        .put("sessions", "http " + count(m, "gram_sessions_open{transport=\"http\",}") + ", sse "
            + count(m, "gram_sessions_open{transport=\"sse\",}"))
        .put("writes", count(m, "gram_write_queue_depth") + " queued")
        .put("capabilities", r.capabilities());
  }

  private static long count(Map<String, Double> m, String key) {
    Double d = m.get(key);
    if (d == null) {
      d = m.get(key.replace(",}", "}"));
    }
    return d == null ? 0 : Math.round(d);
  }
}
