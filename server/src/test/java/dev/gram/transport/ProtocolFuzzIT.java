package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * Malformed and hostile messages, generated, against the real jar over Streamable HTTP and stdio
 * at once: invalid and truncated JSON, every tool with wrongly typed arguments, deep nesting,
 * huge and odd ids, batches, unknown methods, wrong versions. Each must be answered (or, for a
 * notification, passed over) within 5 s, with no 5xx for the client's mistake and no stack trace
 * or class name in any answer; afterwards the process is alive and answers a normal call.
 * 2,500 messages per transport; 100,000 more with {@code -Psoak}.
 */
class ProtocolFuzzIT {
  static final List<String> TOOLS = List.of("gram_profile", "gram_projects", "gram_capabilities", "gram_list",
      "gram_get", "gram_read", "gram_context", "gram_brief", "gram_state", "gram_range", "gram_relations",
      "gram_changes", "gram_recall", "gram_create", "gram_patch");
  static final List<String> KEYS = List.of("path", "entity", "entities", "query", "revision", "recorded_at",
      "effective_at", "base_revision", "expected_hash", "request_id", "operations", "limit", "cursor", "mode",
      "title", "content", "section", "from", "to", "since", "project", "filters", "depth", "ops");
  static final Pattern LEAK = Pattern.compile("Exception|\\tat |dev\\.gram\\.|io\\.vertx\\.|java\\.lang\\.|com\\.fasterxml");

  private static Path dir;
  private static ServerProcess server;
  private static StdioClient stdio;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static long pings;

  @BeforeContainer
  static void start() throws Exception {
    dir = Files.createTempDirectory("gram-fuzz-");
    server = ServerProcess.start(dir, "--no-semantic", "--no-welcome");
    stdio = server.stdio();
    stdio.initialize("fuzz", "2025-11-25");
  }

  @AfterContainer
  static void stop() throws Exception {
    try {
      assertThat(server.isAlive()).as("the server survived every message").isTrue();
      JsonObject caps = stdio.request("tools/call", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject()));
      assertThat(caps.getJsonObject("result")).as(caps.encode()).isNotNull();
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(server.mcpUrl()).timeout(Duration.ofSeconds(5))
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
          .header("Mcp-Name", "gram_capabilities")
          .POST(HttpRequest.BodyPublishers.ofString(modern("gram_capabilities", new JsonObject()).encode())).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(new JsonObject(r.body()).getJsonObject("result")).isNotNull();
      for (String line : stdio.lines()) {
        assertThat(LEAK.matcher(line).find()).as("stdio answer leaks internals: %s", cut(line)).isFalse();
      }
      assertThat(server.stderr()).doesNotContain("OutOfMemoryError");
    } finally {
      server.close();
    }
  }

  @Property(tries = 2500, seed = "20261203")
  void overHttpEveryMessageIsAnsweredWithoutA5xxOrALeak(@ForAll("messages") String message, @ForAll boolean modernHeaders)
      throws Exception {
    overHttp(message, modernHeaders);
  }

  @Property(tries = 2500, seed = "20261204")
  void overStdioEveryMessageIsPassedOrAnsweredAndTheNextCallIsAnswered(@ForAll("messages") String message) throws Exception {
    overStdio(message);
  }

  /**
   * Soak size only ({@code -Psoak}): {@code gram.fuzz.messages} more messages (100,000), drawn
   * from the same generators, alternating between the two transports.
   */
  @Example
  @AddLifecycleHook(SoakOnly.class)
  void soakSizedRunOverBothTransports() throws Exception {
    int n = Integer.getInteger("gram.fuzz.messages", 100_000);
    long t0 = System.nanoTime();
    Iterator<String> messages = messages().sampleStream().limit(n).iterator();
    for (int i = 0; messages.hasNext(); i++) {
      String m = messages.next();
      if (i % 2 == 0) {
        overHttp(m, i % 4 == 0);
      } else {
        overStdio(m);
      }
    }
    System.err.printf(Locale.ROOT, "fuzz soak: %d messages, half over each transport, in %.0f s, none failed%n",
        n, (System.nanoTime() - t0) / 1e9);
  }

  /** Skips the soak-sized run unless {@code gram.soak} is set (the {@code soak} profile sets it). */
  static final class SoakOnly implements SkipExecutionHook {
    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      return Boolean.getBoolean("gram.soak")
          ? SkipResult.doNotSkip()
          : SkipResult.skip("soak size only: mvn -B -Psoak -pl server verify");
    }
  }

  static void overHttp(String message, boolean modernHeaders) throws Exception {
    HttpResponse<String> r = post(message, modernHeaders);
    assertThat(r.statusCode()).as("status for %s", cut(message)).isLessThan(500);
    assertThat(LEAK.matcher(r.body()).find()).as("answer to %s: %s", cut(message), cut(r.body())).isFalse();
  }

  static void overStdio(String message) throws Exception {
    // One line per message: a newline inside would be two messages (JSON escapes newlines).
    stdio.raw(message.replace('\n', ' ').replace('\r', ' '));
    String id = "ping-" + (++pings);
    JsonObject pong = stdio.send(id, "ping", null).get(5, TimeUnit.SECONDS);
    assertThat(pong.getValue("id")).isEqualTo(id);
  }

  static HttpResponse<String> post(String body, boolean modernHeaders) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(server.mcpUrl()).timeout(Duration.ofSeconds(5))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
    if (modernHeaders) {
      b.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call");
    }
    return HTTP.send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonObject modern(String tool, JsonObject arguments) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
        .put("params", new JsonObject().put("name", tool).put("arguments", arguments)
            .put("_meta", StdioClient.modernMeta("fuzz")));
  }

  static String cut(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "…(" + s.length() + " chars)";
  }

  // ------------------------------------------------------------------ generators

  @Provide
  Arbitrary<String> messages() {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.strings().ofMaxLength(200)),
        Tuple.of(2, truncated()),
        Tuple.of(6, wrongArguments()),
        Tuple.of(1, deepNesting()),
        Tuple.of(2, oddIds()),
        Tuple.of(1, batches()),
        Tuple.of(2, oddEnvelopes()));
  }

  static Arbitrary<Object> values() {
    return Arbitraries.oneOf(
        Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.of(-1, 0, Integer.MAX_VALUE, Long.MAX_VALUE, -0.0, 1.5e300).map(v -> (Object) v),
        Arbitraries.strings().ofMaxLength(40).map(v -> (Object) v),
        Arbitraries.of("../../etc/passwd", "@mounts/../x.gram", "a\u0000b.gram", "C:\\x.gram", "x".repeat(5_000),
            "\uD800", "p/\u2215x.gram", "2026-13-45T99:99", "∞").map(v -> (Object) v),
        Arbitraries.of(true, false).map(v -> (Object) v),
        Arbitraries.just(new JsonArray().add(1).add("x").add(new JsonObject())),
        Arbitraries.just(new JsonObject().put("op", "del").put("entity", 7)),
        Arbitraries.just(new JsonArray().add(new JsonObject().put("op", "bogus"))))
        .injectNull(0.1);
  }

  static Arbitrary<String> wrongArguments() {
    Arbitrary<JsonObject> args = Combinators.combine(Arbitraries.of(KEYS), values()).as((k, v) -> new JsonObject().put(k, v))
        .list().ofMaxSize(5).map(list -> {
          JsonObject all = new JsonObject();
          list.forEach(all::mergeIn);
          return all;
        });
    return Combinators.combine(Arbitraries.of(TOOLS), args, Arbitraries.of(true, false))
        .as((tool, a, meta) -> {
          JsonObject params = new JsonObject().put("name", tool).put("arguments", a);
          if (meta) {
            params.put("_meta", StdioClient.modernMeta("fuzz"));
          }
          return new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call").put("params", params).encode();
        });
  }

  static Arbitrary<String> truncated() {
    return Combinators.combine(wrongArguments(), Arbitraries.doubles().between(0, 1))
        .as((m, f) -> m.substring(0, (int) (m.length() * f)));
  }

  static Arbitrary<String> deepNesting() {
    return Arbitraries.integers().between(100, 50_000).map(n ->
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"gram_get\",\"arguments\":"
            + "[".repeat(n) + "]".repeat(n) + "}}");
  }

  static Arbitrary<String> oddIds() {
    return Arbitraries.of("1e400", "1E2", "-0", "\"" + "i".repeat(100_000) + "\"", "{\"a\":1}", "[1,2]", "true",
            "null", "0.5", "99999999999999999999999999")
        .map(id -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
  }

  static Arbitrary<String> batches() {
    return Arbitraries.integers().between(0, 50).map(n -> {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < n; i++) {
        sb.append(i == 0 ? "" : ",").append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"ping\"}");
      }
      return sb.append(']').toString();
    });
  }

  static Arbitrary<String> oddEnvelopes() {
    return Arbitraries.of(
        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
        "{\"id\":1,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[1,2,3]}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"gram_nothing\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"gram://../../etc/passwd\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":17}}",
        "[]", "{}", "null", "\"\"", "0");
  }
}
