package dev.gram.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The contract documents in {@code ../shared}, beside the checkout. They are not part of the
 * project: a test that needs them is skipped, saying why, where they are absent.
 */
public final class SharedContract {
  private SharedContract() {}

  public static Path root() {
    String p = System.getProperty("gram.shared", "../shared");
    return Path.of(p);
  }

  /** Skips the calling test when the contract is not beside the checkout. */
  public static Path require(String relative) {
    Path p = root().resolve(relative);
    assumeTrue(
        Files.isRegularFile(p),
        "skipped: the contract file " + p + " is not here (../shared sits beside a developer's checkout only)");
    return p;
  }

  public static String text(String relative) {
    try {
      return Files.readString(require(relative), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static final String TOOL_REFERENCE = "seeds/001_9de76ca0fb54bb3b.txt";
  public static final String TOOLS_JSON = "contract/tools.json";

  public static JsonObject tools() {
    return new JsonObject(text(TOOLS_JSON)).getJsonObject("tools");
  }
}
