package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.server.BuildInfo;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.StoreWrites;
import dev.gram.testing.VaultGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's commands run as a user runs them: the built jar in a child process, real folders,
 * exit status, stdout and stderr checked.
 */
class CommandsIT {
  @TempDir static Path dir;
  /** A vault with real histories: 6 documents, 4 revisions each, written through the store. */
  static Path generated;

  @BeforeAll
  static void generateVault() throws Exception {
    generated = dir.resolve("generated");
    Vault vault = new Vault(new PathResolver(generated, List.of()), new PatchOps(), Clock.systemUTC(), 4);
    StoreWrites.await(vault.start());
    VaultGenerator.generate(vault, new VaultGenerator.Spec(19).projects(2).documentsPerProject(3)
        .recordsPerDocument(8).revisionsPerDocument(4).placedPerDocument(3));
    StoreWrites.await(vault.close());
  }

  @Test
  void helpAndVersionGoToStdoutWithStatusZero() {
    Cli.Run version = Cli.run(dir, "--version");
    assertThat(version.exit()).as(version.toString()).isZero();
    assertThat(version.out().strip()).isEqualTo("gram-mcp " + BuildInfo.version());
    assertThat(BuildInfo.version()).isNotEqualTo("dev").matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(version.err()).isEmpty();

    Cli.Run help = Cli.run(dir, "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("--vault", "--no-stdio", "--log-level", ".gram-index", "Commands:",
        "validate", "reindex", "import", "export", "status");
    assertThat(help.err()).isEmpty();
    for (String command : new String[] {"serve", "validate", "reindex", "import", "export", "status"}) {
      Cli.Run h = Cli.run(dir, command, "--help");
      assertThat(h.exit()).as(command).isZero();
      assertThat(h.out()).as(command).contains("Usage:", command, "Exit status");
      assertThat(h.err()).isEmpty();
    }
  }

  @Test
  void aBadCommandLineIsOneLineOnStderrAndStatusTwo() {
    for (String[] args : new String[][] {
        {"--bogus"}, {"--port"}, {"--port", "x"}, {"--log-level", "loud"}, {"validate"},
        {"validate", "--vault", "missing-folder"}, {"export", "--vault", "generated"},
        {"import", "--vault", "v"}, {"status"}, {"status", "--vault", "a", "--url", "http://x"}}) {
      Cli.Run r = Cli.run(dir, args);
      assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isEqualTo(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.err().strip().lines()).as(r.toString()).hasSize(1);
      assertThat(r.err()).startsWith("gram-mcp: ").contains("--help").doesNotContain("Exception");
    }
  }

  @Test
  void validatePassesAVaultWrittenByTheStore() {
    Cli.Run r = Cli.run(dir, "validate", "--vault", generated.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("6 documents, 6 verify, 0 do not");
  }

  @Test
  void validateNamesTheFileAndLineOfATamperedHistoryAndATruncatedFile() throws IOException {
    Path tampered = copy(generated, dir.resolve("tampered"));
    List<Path> files = gramFiles(tampered);
    // One byte of a history line: the "by" of revision 1 of the first document.
    Path changed = files.get(0);
    String text = Files.readString(changed);
    int rev1 = text.indexOf("\n@rev 1\n");
    int by = text.indexOf("\nby ", rev1) + 4;
    Files.writeString(changed, text.substring(0, by) + (text.charAt(by) == 'X' ? 'Y' : 'X') + text.substring(by + 1));
    // The second document loses the last fifth of its bytes.
    Path cut = files.get(1);
    byte[] bytes = Files.readAllBytes(cut);
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * 4 / 5));

    Cli.Run r = Cli.run(dir, "validate", "--vault", tampered.toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    String first = tampered.relativize(changed).toString();
    int line = (int) text.substring(0, rev1 + 1).lines().count() + 1;
    assertThat(r.out()).contains(first + ":" + line + ": history hash chain broken at revision 1");
    assertThat(r.out()).containsPattern(java.util.regex.Pattern.quote(tampered.relativize(cut).toString()) + ":\\d+: ");
    assertThat(r.out()).contains("6 documents, 4 verify, 2 do not");

    Cli.Run json = Cli.run(dir, "validate", "--vault", tampered.toString(), "--json");
    assertThat(json.exit()).isEqualTo(1);
    JsonObject report = new JsonObject(json.out());
    assertThat(report.getInteger("failed")).isEqualTo(2);
    assertThat(report.getJsonArray("problems")).hasSize(2);
    // validate only reads.
    assertThat(Files.readAllBytes(cut)).hasSize(bytes.length * 4 / 5);
  }

  @Test
  void importTurnsNotesIntoDocumentsAndNeverOverwrites() throws IOException {
    Path notes = Notes.write(dir.resolve("notes-a"));
    Path vault = dir.resolve("imported");
    Cli.Run r = Cli.run(dir, "import", "--vault", vault.toString(), "--project", "work", notes.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("-> work/Launch-Plan.gram (3 tasks, 1 link)",
        "-> work/projects/risk-register.gram (1 task, 1 link)",
        "-> work/projects/meeting-2026-03-02.gram (1 task, 0 links)",
        "[[Missing Note]]: no note of that name", "1 indented task item kept as text",
        "import: 3 imported, 0 skipped, 0 failed");
    assertThat(r.out()).doesNotContain("workspace", "diagram");

    String plan = Files.readString(vault.resolve("work/Launch-Plan.gram"));
    assertThat(plan).contains("t Launch plan", "tag launch", "tag q4", "owner Maria Chen", "aliases go-live",
        "| venue | 4,000 |", "- [ ] not a task: this is code", "> Ship it when it is ready",
        "[Risk Register](work/projects/risk-register.gram)", "t Freeze the API", "x done", "rel related");
    assertThat(plan.split("\nTSK ", -1)).hasSize(4);
    assertThat(Files.readString(vault.resolve("work/projects/meeting-2026-03-02.gram"))).doesNotContain("\r");
    assertThat(Cli.run(dir, "validate", "--vault", vault.toString()).exit()).isZero();

    Cli.Run again = Cli.run(dir, "import", "--vault", vault.toString(), "--project", "work", notes.toString());
    assertThat(again.exit()).isZero();
    assertThat(again.out()).contains("import: 0 imported, 3 skipped, 0 failed", "already exists");
    assertThat(Files.readString(vault.resolve("work/Launch-Plan.gram"))).isEqualTo(plan);
  }

  @Test
  void exportWritesMarkdownAndJsonAndImportingAnExportGivesTheDocumentsBack() throws IOException {
    Path notes = Notes.write(dir.resolve("notes-b"));
    Path first = dir.resolve("round-1");
    assertThat(Cli.run(dir, "import", "--vault", first.toString(), notes.toString()).exit()).isZero();
    byte[] before = Files.readAllBytes(first.resolve("Launch-Plan.gram"));

    Path md = dir.resolve("export-md");
    Cli.Run r = Cli.run(dir, "export", "--vault", first.toString(), "--to", md.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("export: 3 documents written");
    String exported = Files.readString(md.resolve("Launch-Plan.md"));
    assertThat(exported).startsWith("---\nid: \"d_").contains("title: \"Launch plan\"", "tag: [\"launch\", \"q4\"]",
        "- [ ] Freeze the API", "- [x] Write the press release", "| ads | 12,500 |", "related: [[Risk Register]]");
    assertThat(Files.readAllBytes(first.resolve("Launch-Plan.gram"))).isEqualTo(before);

    Path second = dir.resolve("round-2");
    Cli.Run back = Cli.run(dir, "import", "--vault", second.toString(), md.toString());
    assertThat(back.exit()).as(back.toString()).isZero();
    JsonObject a = json(first, "Launch-Plan");
    JsonObject b = json(second, "Launch-Plan");
    assertThat(b.getString("id")).isEqualTo(a.getString("id"));
    assertThat(b.getString("title")).isEqualTo(a.getString("title"));
    assertThat(tasks(b)).isEqualTo(tasks(a));
    assertThat(b.getJsonObject("fields").getJsonArray("tag")).isEqualTo(a.getJsonObject("fields").getJsonArray("tag"));
    assertThat(relations(b)).isEqualTo(relations(a)).isEqualTo(1);
  }

  @Test
  void statusAndReindexOnAVault() throws IOException {
    Path vault = copy(generated, dir.resolve("for-status"));
    Cli.Run before = Cli.run(dir, "status", "--vault", vault.toString(), "--no-semantic");
    assertThat(before.exit()).as(before.toString()).isZero();
    assertThat(before.out()).contains("documents  6", "revisions  24", "index      none yet", "not probed");
    assertThat(before.out()).containsPattern("records    \\d+").containsPattern("last write 20\\d\\d-");

    Cli.Run reindex = Cli.run(dir, "reindex", "--vault", vault.toString());
    assertThat(reindex.exit()).as(reindex.toString()).isZero();
    assertThat(reindex.err()).containsPattern("reindex: 6 documents indexed in \\d+\\.\\d s; index at "
        + java.util.regex.Pattern.quote(vault.resolve(".gram-index").toString()));
    assertThat(reindex.out()).isEmpty();

    Cli.Run after = Cli.run(dir, "status", "--vault", vault.toString(), "--json");
    assertThat(after.exit()).as(after.toString()).isZero();
    JsonObject counts = new JsonObject(after.out()).getJsonObject("counts");
    assertThat(counts.getInteger("documents")).isEqualTo(6);
    assertThat(counts.getInteger("indexed")).isEqualTo(6);
    assertThat(new JsonObject(after.out()).getString("semantic")).matches("available|unavailable: .+");
    // The repository's index/ keeps its README when it is rebuilt there.
    Path checkoutIndex = Files.createDirectories(dir.resolve("checkout-index"));
    Files.writeString(checkoutIndex.resolve("README.md"), "# index/");
    assertThat(Cli.run(dir, "reindex", "--vault", vault.toString(), "--index", checkoutIndex.toString()).exit()).isZero();
    assertThat(Cli.run(dir, "reindex", "--vault", vault.toString(), "--index", checkoutIndex.toString()).exit()).isZero();
    assertThat(checkoutIndex.resolve("README.md")).hasContent("# index/");
  }

  private static JsonObject json(Path vault, String name) throws IOException {
    Path out = Files.createTempDirectory(dir, "json");
    assertThat(Cli.run(dir, "export", "--vault", vault.toString(), "--to", out.toString(), "--format", "json").exit()).isZero();
    return new JsonObject(Files.readString(out.resolve(name + ".json"), StandardCharsets.UTF_8));
  }

  private static List<String> tasks(JsonObject doc) {
    return doc.getJsonArray("records").stream().map(JsonObject.class::cast)
        .filter(r -> r.getString("type").equals("task"))
        .map(r -> r.getJsonObject("fields").getJsonArray("t").getString(0) + "=" + r.getJsonObject("fields").getJsonArray("x").getString(0))
        .sorted().toList();
  }

  private static long relations(JsonObject doc) {
    JsonArray records = doc.getJsonArray("records");
    return records.stream().map(JsonObject.class::cast).filter(r -> r.getString("type").equals("relation")).count();
  }

  private static List<Path> gramFiles(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".gram")).sorted().toList();
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    return to;
  }
}
