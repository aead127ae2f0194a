package dev.gram.server.cli;

import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Hashes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code export}: every document's current state as Markdown or JSON files; the vault is untouched. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    header = "write every document out as Markdown or JSON",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Writes the current state of every document of the vault to --to, one file per document",
        "at the same relative path: Markdown (front matter, the body, records drawn where the body",
        "places them, tasks as - [ ] / - [x]) or JSON (every field, link and block). Only reads the vault.",
        "Exit status: 0 all exported, 1 some documents could not be read, 2 bad command line.",
        ""})
final class ExportCommand implements Callable<Integer> {
  enum Format { md, json }

  @Spec CommandSpec spec;
  @Mixin VaultArg vault;
  @Mixin LogOptions log;

  @Option(names = "--to", paramLabel = "<dir>", required = true,
      description = "the folder to write into (created when missing; files of the same name are replaced)")
  Path to;

  @Option(names = "--format", paramLabel = "md|json", description = "md (the default) or json")
  Format format = Format.md;

  @Override
  public Integer call() throws IOException {
    LogOptions.defaultTo("warn");
    Path root = vault.existing();
    Path out = to.toAbsolutePath().normalize();
    if (out.startsWith(root)) {
      throw new ParameterException(spec.commandLine(), "--to " + out + " is inside the vault; choose a folder outside it");
    }
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new ParameterException(spec.commandLine(), "--to " + out + " is a file, not a folder");
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    int written = 0;
    int failed = 0;
    Map<VaultFiles.DocFile, GramFile> files = new LinkedHashMap<>();
    Map<String, String> titles = new HashMap<>();
    for (VaultFiles.DocFile doc : VaultFiles.list(root).documents()) {
      GramParser.Result parsed = GramParser.parse(Files.readString(doc.file(), StandardCharsets.UTF_8));
      if (parsed instanceof GramParser.Failure f) {
        stderr.println("gram-mcp: " + doc.path() + ":" + f.line() + ": not exported: " + f.message());
        failed++;
        continue;
      }
      GramFile file = ((GramParser.Success) parsed).file();
      files.put(doc, file);
      titles.putIfAbsent(file.state().id(), file.state().title());
    }
    for (Map.Entry<VaultFiles.DocFile, GramFile> e : files.entrySet()) {
      VaultFiles.DocFile doc = e.getKey();
      GramFile file = e.getValue();
      String hash = Hashes.sha256(GramWriter.write(file.state()));
      int rev = file.hasHistory() ? file.history().get(file.history().size() - 1).rev() : 0;
      if (file.hasHistory() && !file.history().get(file.history().size() - 1).stateHash().equals(hash)) {
        rev++; // edited by another program: the server counts that edit as the next revision
      }
      DocumentExport.Meta meta = new DocumentExport.Meta(doc.path(), rev, hash.substring(0, 16));
      String base = doc.path().substring(0, doc.path().length() - ".gram".length());
      Path target = out.resolve(base + "." + format.name());
      Files.createDirectories(target.getParent());
      String text = format == Format.md
          ? DocumentExport.markdown(file.state(), meta, titles::get)
          : DocumentExport.json(file.state(), meta).encodePrettily() + "\n";
      Files.writeString(target, text, StandardCharsets.UTF_8);
      written++;
    }
    stdout.println("export: " + written + " document" + (written == 1 ? "" : "s") + " written to " + out
        + " as " + format.name() + (failed > 0 ? "; " + failed + " could not be read (see above)" : ""));
    stdout.flush();
    return failed == 0 ? Exit.OK : Exit.FAILED;
  }
}
