package dev.gram.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The contract documents in {@code ../shared}, beside the checkout (the pom passes their folder
 * as {@code gram.shared}). They are not part of the project: a test that needs them is skipped,
 * saying why, where they are absent.
 */
final class SharedFiles {
  private SharedFiles() {}

  static final String TOOLS_JSON = "contract/tools.json";

  static Path root() {
    return Path.of(System.getProperty("gram.shared", "../shared"));
  }

  /** The file, or the calling test is skipped when the contract is not beside the checkout. */
  static Path require(String relative) {
    Path p = root().resolve(relative);
    assumeTrue(
        Files.isRegularFile(p),
        "skipped: the contract file " + p + " is not here (../shared sits beside a developer's checkout only)");
    return p;
  }
}
