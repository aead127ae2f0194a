package dev.gram.server.cli;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code validate}: verifies every document of a vault without changing anything. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    header = "verify every document; only reads, never repairs",
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
        "Parses and verifies every document of the vault: UTF-8, the grammar, the hash chain, the",
        "@history head, a replay of every revision against its state hash, and the current state",
        "against the last revision. Also: one document id per document, one intent per request_id.",
        "Prints one line per problem (file:line: what is wrong) and a summary. Only reads; never repairs.",
        "Exit status: 0 every document verifies, 1 some do not, 2 bad command line.",
        ""})
final class ValidateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin VaultArg vault;
  @Mixin LogOptions log;

  @Option(names = "--json", description = "print the report as one JSON object instead")
  boolean json;

  @Option(names = "--quiet", description = "leave out notes (things worth knowing that are not problems)")
  boolean quiet;

  /** One finding of the report. */
  record Line(String path, DocumentCheck.Finding finding) {
    String text() {
      String where = finding.line() > 0 ? path + ":" + finding.line() : path;
      return where + ": " + (finding.problem() ? "" : "note: ") + finding.what();
    }
  }

  @Override
  public Integer call() throws IOException {
    LogOptions.defaultTo("warn");
    Path root = vault.existing();
    VaultFiles.Listing listing = VaultFiles.list(root);
    List<Line> lines = new ArrayList<>();
    CrossChecks cross = new CrossChecks();
    int failed = 0;
    for (VaultFiles.DocFile doc : listing.documents()) {
      DocumentCheck.Result r;
      try {
        r = DocumentCheck.check(Files.readAllBytes(doc.file()));
      } catch (IOException e) {
        r = new DocumentCheck.Result(
            List.of(new DocumentCheck.Finding(true, 0, "cannot be read: " + Exit.describe(e))), null, List.of());
      }
      List<DocumentCheck.Finding> findings = new ArrayList<>(r.findings());
      findings.addAll(cross.add(doc.path(), r));
      boolean ok = true;
      for (DocumentCheck.Finding f : findings) {
        lines.add(new Line(doc.path(), f));
        ok &= !f.problem();
      }
      if (!ok) {
        failed++;
      }
    }
    for (Path leftover : listing.leftovers()) {
      lines.add(new Line(root.relativize(leftover).toString(), new DocumentCheck.Finding(false, 0,
          "temporary file of an interrupted write; the server removes it when it opens the vault")));
    }
    int total = listing.documents().size();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(report(root, total, failed, lines).encodePrettily());
    } else {
      for (Line l : lines) {
        if (l.finding().problem() || !quiet) {
          out.println(l.text());
        }
      }
      out.println(summary(root, total, failed, lines));
    }
    out.flush();
    return failed == 0 ? Exit.OK : Exit.FAILED;
  }

  private static String summary(Path root, int total, int failed, List<Line> lines) {
    long notes = lines.stream().filter(l -> !l.finding().problem()).count();
    return "validate " + root + ": " + total + " document" + (total == 1 ? "" : "s") + ", "
        + (total - failed) + " verif" + (total - failed == 1 ? "ies" : "y") + ", "
        + failed + (failed == 1 ? " does" : " do") + " not"
        + (notes > 0 ? " (" + notes + " note" + (notes == 1 ? "" : "s") + ")" : "");
  }

  private static JsonObject report(Path root, int total, int failed, List<Line> lines) {
    JsonArray problems = new JsonArray();
    JsonArray notes = new JsonArray();
    for (Line l : lines) {
      JsonObject o = new JsonObject().put("path", l.path()).put("line", l.finding().line())
          .put("what", l.finding().what());
      (l.finding().problem() ? problems : notes).add(o);
    }
    return new JsonObject()
        .put("vault", root.toString())
        .put("documents", total)
        .put("verified", total - failed)
        .put("failed", failed)
        .put("problems", problems)
        .put("notes", notes);
  }
}
