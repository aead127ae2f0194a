package dev.gram.testing;

import dev.gram.tools.spi.Tool;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared contract ({@code ../shared/contract/tools.json}, path from the system property
 * {@code gram.shared}). Tests that compare against it are skipped, with a message saying why,
 * when the shared folder is not there (a checkout without the steering repository beside it).
 */
public final class Contract {
  private Contract() {}

  /** The parsed tools.json; skips the calling test when it is absent. */
  public static JsonObject tools() {
    String shared = System.getProperty("gram.shared");
    Path file = shared == null ? null : Path.of(shared, "contract", "tools.json");
    Assumptions.assumeTrue(
        file != null && Files.isRegularFile(file),
        "skipped: the contract " + (file == null ? "(gram.shared not set)" : file)
            + " is not present, so there is nothing to compare against");
    try {
      return new JsonObject(Files.readString(file)).getJsonObject("tools");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Tool names in the contract's order. */
  public static List<String> toolNames() {
    return new ArrayList<>(tools().fieldNames());
  }

  public static JsonObject inputSchema(String tool) {
    return tools().getJsonObject(tool).getJsonObject("inputSchema");
  }

  public static JsonObject exampleRequest(String tool) {
    return tools().getJsonObject(tool).getJsonObject("exampleRequest");
  }
}
