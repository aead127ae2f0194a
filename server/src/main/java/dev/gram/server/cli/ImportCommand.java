package dev.gram.server.cli;

import dev.gram.base.GramException;
import dev.gram.edit.Creation;
import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code import}: Markdown notes become {@code .gram} documents, one revision each, written
 * through the store like any agent's create (durable, and never over an existing document).
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    header = "turn Markdown notes into .gram documents",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Turns Markdown files (.md, .markdown) and folders of them into .gram documents, one",
        "revision each, at the same relative paths (under --project when given). Headings,",
        "paragraphs, lists, tables and code stay the md body; top-level - [ ] / - [x] items become",
        "task records; YAML front matter becomes fields (title the title, tags tag); [[wiki links]]",
        "to notes of the same import become links. Never overwrites an existing document.",
        "Reports what it did and what it could not convert. The vault is created when missing.",
        "Exit status: 0 every note imported or already there, 1 some failed, 2 bad command line.",
        ""})
final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin VaultArg vault;
  @Mixin LogOptions log;

  @Option(names = "--project", paramLabel = "<name>", description = "the vault folder to import into (default: the vault's top)")
  String project;

  @Parameters(paramLabel = "SOURCE", arity = "1..*", description = "Markdown files and folders")
  List<Path> sources;

  /** One note to import: where it comes from and where it goes. */
  record Planned(Path source, String shown, String path, String stem) {}

  @Override
  public Integer call() throws Exception {
    LogOptions.defaultTo("warn");
    List<Planned> plan = plan();
    Path root = vault.orCreate();
    PrintWriter out = spec.commandLine().getOut();
    Vault v = new Vault(new PathResolver(root, List.of()), new PatchOps(), Clock.systemUTC(), 4);
    try {
      v.openLog();
    } catch (dev.gram.store.VaultInUseException e) {
      spec.commandLine().getErr().println("gram-mcp: " + e.getMessage() + "; import through that server, or stop it first");
      return 1;
    }
    try {
      await(v.start());
      return run(v, plan, out);
    } finally {
      await(v.close());
    }
  }

  private int run(Vault v, List<Planned> plan, PrintWriter out) throws Exception {
    // Every note's document id first, so that a link can name a note imported after it.
    Map<Planned, String> ids = new HashMap<>();
    Map<String, MarkdownNote.Target> byName = new HashMap<>();
    Set<String> paths = new HashSet<>();
    Map<Planned, String> texts = new HashMap<>();
    for (Planned p : plan) {
      String text = Files.readString(p.source(), StandardCharsets.UTF_8);
      texts.put(p, text);
      FrontMatter fm = FrontMatter.parse(text.replace("\r\n", "\n"));
      String id = MarkdownNote.requestedId(fm);
      if (id == null || v.pathOfDocumentId(id) != null || ids.containsValue(id)) {
        id = Creation.newDocumentId();
      }
      ids.put(p, id);
      MarkdownNote.Target t = new MarkdownNote.Target(p.path(), id);
      byName.putIfAbsent(MarkdownNote.linkKey(p.stem()), t);
      byName.putIfAbsent(MarkdownNote.linkKey(MarkdownNote.title(fm, p.stem())), t);
    }
    Set<String> importIds = new HashSet<>(ids.values());
    int imported = 0;
    int skipped = 0;
    int failed = 0;
    int notes = 0;
    for (Planned p : plan) {
      if (!paths.add(p.path()) || Files.exists(v.paths().vaultRoot().resolve(p.path()))) {
        out.println("skipped " + p.shown() + ": " + p.path() + " already exists (import never overwrites)");
        skipped++;
        continue;
      }
      try {
        VaultPath target = v.paths().writableDocument(p.path());
        MarkdownNote.Converted c = MarkdownNote.convert(texts.get(p), p.stem(), ids.get(p),
            name -> byName.get(MarkdownNote.linkKey(name)));
        Creation.Result r = Creation.build(c.documentId(), c.title(), c.content(),
            id -> importIds.contains(id) || v.pathOfDocumentId(id) != null);
        await(v.submit(new WriteCommand.Create(target, r.state(), "gram-mcp import", null, r.created(), r.diagnostics())));
        out.println("imported " + p.shown() + " -> " + p.path() + " (" + c.tasks() + " task" + (c.tasks() == 1 ? "" : "s")
            + ", " + c.links() + " link" + (c.links() == 1 ? "" : "s") + ")");
        for (String problem : c.problems()) {
          out.println("  not converted: " + problem);
          notes++;
        }
        for (Object d : r.diagnostics()) {
          out.println("  note: " + (d instanceof io.vertx.core.json.JsonObject o ? o.getString("message", o.encode()) : d));
        }
        imported++;
      } catch (GramException e) {
        out.println("failed " + p.shown() + ": " + e.getMessage());
        failed++;
      } catch (java.util.concurrent.ExecutionException e) {
        out.println("failed " + p.shown() + ": " + Exit.describe(e.getCause()));
        failed++;
      }
    }
    out.println("import: " + imported + " imported, " + skipped + " skipped, " + failed + " failed"
        + (notes > 0 ? "; " + notes + " thing" + (notes == 1 ? "" : "s") + " not converted (listed above)" : ""));
    out.flush();
    return failed == 0 ? Exit.OK : Exit.FAILED;
  }

  /** The notes to import, in a stable order; a missing source is a usage error. */
  private List<Planned> plan() throws IOException {
    List<Planned> plan = new ArrayList<>();
    String prefix = project == null || project.isBlank() ? "" : NotePaths.segment(project) + "/";
    for (Path source : sources) {
      Path s = source.toAbsolutePath().normalize();
      if (!Files.exists(s)) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "no such file or folder: " + source);
      }
      if (Files.isDirectory(s)) {
        for (Path f : NotePaths.markdownUnder(s)) {
          plan.add(planned(f, source.resolve(s.relativize(f)).toString(), prefix + NotePaths.documentPath(s.relativize(f))));
        }
      } else {
        plan.add(planned(s, source.toString(), prefix + NotePaths.documentPath(s.getFileName())));
      }
    }
    return plan;
  }

  private static Planned planned(Path file, String shown, String path) {
    String name = file.getFileName().toString();
    return new Planned(file, shown, path, name.substring(0, name.lastIndexOf('.')));
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
