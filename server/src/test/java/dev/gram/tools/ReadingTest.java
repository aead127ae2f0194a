package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ResponseBudget;
import dev.gram.testing.GramTestServer;
import dev.gram.testing.StoreWrites;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One server per test class on its own vault folder; tests see only what a client sees. JSON in
 * tests is written with single quotes ({@link #json}) for readability.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReadingTest {
  Path dir;
  GramTestServer server;
  StoreWrites store;

  /** Extra server options for this class. */
  String[] serverOptions() {
    return new String[0];
  }

  /** The clock revisions are recorded by: a class that needs distinct times sets them by hand. */
  java.time.Clock clock() {
    return java.time.Clock.systemUTC();
  }

  @BeforeAll
  void startServer() throws IOException {
    dir = Files.createTempDirectory("gram-reading-");
    server = GramTestServer.start(dir.resolve("vault"), clock(), serverOptions());
    store = StoreWrites.on(server);
  }

  @AfterAll
  void stopServer() throws IOException {
    server.close();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** JSON with single quotes for double quotes. */
  static JsonObject json(String singleQuoted) {
    return new JsonObject(singleQuoted.replace('\'', '"'));
  }

  static JsonArray array(String singleQuoted) {
    return new JsonArray(singleQuoted.replace('\'', '"'));
  }

  ToolResult call(String tool, String singleQuoted) {
    return server.call(tool, json(singleQuoted));
  }

  ToolResult call(String tool, JsonObject args) {
    return server.call(tool, args);
  }

  JsonObject ok(String tool, String singleQuoted) {
    ToolResult r = call(tool, singleQuoted);
    JsonObject out = r.ok();
    assertFitsBudget(out);
    return out;
  }

  JsonObject ok(String tool, JsonObject args) {
    JsonObject out = call(tool, args).ok();
    assertFitsBudget(out);
    return out;
  }

  static void assertFitsBudget(JsonObject answer) {
    assertThat(answer.encode().getBytes(StandardCharsets.UTF_8).length)
        .as("answer size").isLessThanOrEqualTo(ResponseBudget.BYTES);
  }

  /** As {@link #assertError(ToolResult, String, String)}, collected with the other checks of a test. */
  static void assertError(org.assertj.core.api.SoftAssertions softly, ToolResult r, String code, String message) {
    softly.assertThat(r.isError()).as("expected %s, got %s", code, r.structured().encode()).isTrue();
    softly.assertThat(r.code()).as("code of %s", r.structured().encode()).isEqualTo(code);
    if (message != null) {
      softly.assertThat(r.message()).isEqualTo(message);
    }
  }

  static void assertError(ToolResult r, String code, String message) {
    assertThat(r.isError()).as("expected %s, got %s", code, r.structured().encode()).isTrue();
    assertThat(r.code()).isEqualTo(code);
    if (message != null) {
      assertThat(r.message()).isEqualTo(message);
    }
  }

  /** The cursor of a page, tampered with: its JSON no longer parses. */
  static String malformed(String cursor) {
    return cursor.substring(0, cursor.length() / 2) + "!!";
  }

  static String quoteless(Object o) {
    return String.valueOf(o).replace('"', '\'');
  }

  void writeText(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
