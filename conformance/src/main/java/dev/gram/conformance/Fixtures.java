package dev.gram.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The documents two capabilities need, written into a vault before its server starts: a plain
 * document for {@code commit-unknown} (the server is then told to fail its next commit) and a
 * document whose history fails its audit for {@code corrupt-document}. Both are ordinary {@code
 * .gram} files, so any server of the contract can be given them.
 */
public final class Fixtures {
  private Fixtures() {}

  public static final String COMMIT_UNKNOWN = "fixtures/commit-unknown.gram";
  public static final String CORRUPT = "fixtures/corrupt.gram";

  /**
   * Writes both fixtures under {@code vault} (replacing earlier ones, since a commit-unknown
   * fixture serves one server start) and returns the capabilities they provide, name to value.
   */
  public static Map<String, String> write(Path vault) throws IOException {
    Path dir = Files.createDirectories(vault.resolve("fixtures"));
    // Hand-written, without history: revision 0 when read, so its first commit is a patch.
    Files.writeString(
        dir.resolve("commit-unknown.gram"),
        "@gram 2\ndoc commit_unknown_fixture\nt Commit unknown fixture\n",
        StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("corrupt.gram"), corrupt(), StandardCharsets.UTF_8);
    Map<String, String> needs = new LinkedHashMap<>();
    needs.put("commit-unknown", COMMIT_UNKNOWN);
    needs.put("corrupt-document", CORRUPT);
    return needs;
  }

  /**
   * The complete example of the format specification (docs/gram-format.md §14: a create and one
   * patch) with the head line's chain hash replaced by zeros: the state reads, the history audit
   * fails ("History truncated or altered").
   */
  static String corrupt() {
    return String.join(
        "\n",
        "@gram 2",
        "doc d_51779bca8dd74f53afe256c4bc8fbe2d",
        "t Lunar migration decision",
        "::rich",
        "# Descriptor fixture",
        "",
        "Lunar migration evidence tracks the migration decision.",
        "",
        "[[e1]]",
        "::end",
        "",
        "DEC d1",
        "t Lunar migration decision",
        "d Description updated by a real CAS patch.",
        "",
        "EVD e1",
        "t Lunar migration evidence",
        "-> supports d1",
        "",
        "@history 1 " + "0".repeat(64),
        "@rev 0",
        "at 2026-10-12T23:10:31.884Z",
        "actor agent",
        "by example-agent",
        "chg + d_51779bca8dd74f53afe256c4bc8fbe2d document",
        "chg + d1 decision",
        "diff 0 0",
        "|@gram 2",
        "|doc d_51779bca8dd74f53afe256c4bc8fbe2d",
        "|t Lunar migration decision",
        "|::rich",
        "|# Descriptor fixture",
        "|",
        "|Lunar migration evidence tracks the migration decision.",
        "|::end",
        "|",
        "|DEC d1",
        "|t Lunar migration decision",
        "|d Initial decision description",
        "state 25694ca2ff2422e10738087585058a53a352fcdda4f59dafa12985926bdf489a",
        "chain 4145591372b4f1a8e55acee8a61dac135842e8e864be0adc501bf323285e8afc",
        "@rev 1",
        "at 2026-10-12T23:10:31.884Z",
        "actor agent",
        "by example-agent",
        "eff 2026-10-12",
        "req descriptor-evidence-patch",
        "digest bc3fee631a15ab19add3664f03ac4cd08d382eb999f8daaf421eb784fd30e1b1",
        "chg ~ d_51779bca8dd74f53afe256c4bc8fbe2d body",
        "chg ~ d1 d",
        "chg + e1 evidence",
        "diff 7 0",
        "|",
        "|[[e1]]",
        "diff 11 1",
        "|d Description updated by a real CAS patch.",
        "|",
        "|EVD e1",
        "|t Lunar migration evidence",
        "|-> supports d1",
        "state 3ded9e1b062a80fb6b45e27dd68f473affe84ef9fc317ab27c5a614d94aec76b",
        "chain 233ae9e235531a8880a4ea7cca73bc17bdc0be0644539fc29af6a14e9878396b",
        "");
  }
}
