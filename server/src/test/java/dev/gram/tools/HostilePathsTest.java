package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A corpus of paths an attacker or an unlucky agent sends, against every tool that takes a path,
 * over the real transport: each is refused with a clear error (never E_INTERNAL, never a success),
 * and nothing outside the vault is read or written. (A lone UTF-16 surrogate cannot cross a JSON
 * client, which sends U+FFFD instead; PathRulesTest checks it at the resolver.)
 */
class HostilePathsTest extends ReadingTest {
  static final Set<String> REFUSALS = Set.of("E_PATH", "E_ARGUMENT", "E_READ_ONLY");
  Path outside;
  Set<String> outsideBefore;

  @BeforeAll
  void fixture() throws IOException {
    outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.gram"), "# secret\n");
    Path vault = dir.resolve("vault");
    Files.createDirectories(vault.resolve("proj"));
    Files.createSymbolicLink(vault.resolve("link-out"), outside);
    Files.createSymbolicLink(vault.resolve("proj/doclink.gram"), outside.resolve("secret.gram"));
    Files.createSymbolicLink(vault.resolve("proj/dangling.gram"), outside.resolve("nowhere.gram"));
    store.create("proj/real.gram", "Real", "# real");
    outsideBefore = listing(dir);
  }

  static List<String> corpus() {
    List<String> bases = List.of(
        "../x.gram", "../../etc/passwd.gram", "a/../../x.gram", "a/../b.gram", "./a.gram", "a/./b.gram", "..", "../",
        "%2e%2e/x.gram", "%2e%2e%2fx.gram", "..%2fx.gram", "%252e%252e/x.gram", "%2E%2E/x.gram", "..%5cx.gram",
        "%c0%ae%c0%ae/x.gram", "..\\x.gram", "a\\b.gram", "..\\..\\x.gram",
        "/etc/x.gram", "/x.gram", "C:/x.gram", "C:\\x.gram", "c:x.gram", "\\\\server\\share\\x.gram",
        "//server/share/x.gram", "~/x.gram", "~root/x.gram", "file:///etc/passwd.gram",
        "a\u0000.gram", "a.gram\u0000.txt", "\u0000", "a\n.gram", "a\r.gram", "a\t.gram", "a\u007f.gram",
        "..\u2215x.gram", "\uFF0E\uFF0E/x.gram", "\uFF0E\uFF0E\u2215x.gram", "a\u2215b.gram", "a\uFF0Fb.gram",
        "\u2024\u2024/x.gram", "a\u2044b.gram",
        "a.gram.", "a.gram ", " a.gram", "p /a.gram", "p./a.gram", "p../a.gram",
        ".git/config.gram", "p/.hidden.gram", ".gram", ".env", "p/.",
        "@mounts/../x.gram", "@mounts/nope/x.gram", "@mounts/", "@x/y.gram", "@mounts/ro/../../x.gram", "@mounts",
        "link-out/x.gram", "link-out/secret.gram", "proj/doclink.gram", "proj/dangling.gram",
        "a".repeat(300) + ".gram", "p/" + "b".repeat(256) + ".gram", "a/".repeat(600) + "x.gram",
        "p/\u202Emarg.gram", "p/a\u200Bb.gram", "p/\u2066x\u2069.gram", "p/\uFEFFx.gram",
        "p//a.gram", "/", "//", "p/a.gram/", "a/b/../../../x.gram");
    List<String> all = new ArrayList<>(bases);
    for (String b : bases) {
      // The same attacks one folder down (the symbolic links are only where the fixture put them).
      if (!b.startsWith("/") && !b.startsWith("@") && !b.startsWith("~") && !b.contains(":")
          && !b.startsWith("link-out") && !b.startsWith("proj/")) {
        all.add("proj/" + b);
      }
    }
    return all;
  }

  @Test
  void theCorpusHasMoreThanAHundredVariants() {
    assertThat(corpus().size()).isGreaterThanOrEqualTo(100);
  }

  @Test
  void everyToolThatTakesAPathRefusesEveryVariantAndNothingOutsideTheVaultChanges() throws IOException {
    List<String> accepted = new ArrayList<>();
    List<Function<String, JsonObject>> calls = List.of(
        p -> json("{'tool':'gram_create','args':{'base_revision':null,'title':'T','content':'x'}}").put("p", "path"),
        p -> json("{'tool':'gram_patch','args':{'base_revision':0,'expected_hash':'0000000000000000','request_id':'r1','operations':[{'op':'set','entity':'doc','key':'d','value':'v'}]}}").put("p", "path"),
        p -> json("{'tool':'gram_read','args':{}}").put("p", "path"),
        p -> json("{'tool':'gram_get','args':{'entity':'doc'}}").put("p", "path"),
        p -> json("{'tool':'gram_list','args':{}}").put("p", "path"),
        p -> json("{'tool':'gram_brief','args':{}}").put("p", "path"),
        p -> json("{'tool':'gram_brief','args':{}}").put("p", "folder"),
        p -> json("{'tool':'gram_changes','args':{}}").put("p", "path"),
        p -> json("{'tool':'gram_changes','args':{}}").put("p", "folder"),
        p -> json("{'tool':'gram_range','args':{}}").put("p", "path"),
        p -> json("{'tool':'gram_state','args':{'selector':{'revision':0}}}").put("p", "path"),
        p -> json("{'tool':'gram_recall','args':{'query':'secret'}}").put("p", "folder"),
        p -> json("{'tool':'gram_relations','args':{}}").put("p", "from"),
        p -> json("{'tool':'gram_context','args':{}}").put("p", "ids"));
    int calls0 = 0;
    for (String path : corpus()) {
      for (Function<String, JsonObject> make : calls) {
        JsonObject spec = make.apply(path);
        String tool = spec.getString("tool");
        JsonObject args = spec.getJsonObject("args").copy();
        switch (spec.getString("p")) {
          case "from" -> args.put("from", new JsonObject().put("path", path).put("entity", "doc"));
          case "ids" -> args.put("ids", new JsonArray().add(new JsonObject().put("path", path).put("entity", "doc")));
          default -> args.put(spec.getString("p"), path);
        }
        ToolResult r = call(tool, args);
        calls0++;
        String code = refusal(tool, r);
        if (code == null || !REFUSALS.contains(code)) {
          accepted.add(tool + " " + printable(path) + " -> " + r.structured().encode());
        } else {
          assertThat(r.structured().encode()).doesNotContain("Exception").doesNotContain("dev.gram.");
        }
      }
    }
    assertThat(accepted).as("variants not refused with a clear error (of %d calls)", calls0).isEmpty();
    assertThat(listing(dir)).as("files outside the vault and its index").isEqualTo(outsideBefore);
    assertThat(Files.readString(outside.resolve("secret.gram"))).isEqualTo("# secret\n");
    // The server still answers a normal call.
    assertThat(ok("gram_read", "{'path':'proj/real.gram'}").getJsonObject("doc").getString("path")).isEqualTo("proj/real.gram");
  }

  /** The error code a call was refused with, or null when it succeeded. */
  private static String refusal(String tool, ToolResult r) {
    if (r.isError()) {
      return r.code();
    }
    if (tool.equals("gram_context")) {
      // gram_context answers per id: the one id must carry its own error.
      JsonObject item = r.structured().getJsonArray("items").getJsonObject(0);
      JsonObject error = item.getJsonObject("error");
      return error == null ? null : error.getString("code");
    }
    return null;
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return b.length() > 80 ? b.substring(0, 80) + "…" : b.toString();
  }

  /** Every file and folder under root, except the vault and the index, which are the server's. */
  private static Set<String> listing(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      Set<String> out = new TreeSet<>();
      s.map(p -> root.relativize(p).toString())
          .filter(p -> !p.startsWith("vault") && !p.startsWith("vault-index"))
          .forEach(out::add);
      return out;
    }
  }
}
