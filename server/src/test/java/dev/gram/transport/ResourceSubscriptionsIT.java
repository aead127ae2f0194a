package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.testing.McpClients;
import dev.gram.testing.ModernListen;
import dev.gram.testing.ServerProcess;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Documents as resources and their subscriptions, with real clients: the official Java SDK over
 * stdio, Streamable HTTP and legacy SSE (2025 era), and raw 2026-07-28 HTTP. One agent writes, the
 * other hears it.
 */
class ResourceSubscriptionsIT {
  static final Duration WAIT = Duration.ofSeconds(20);
  @TempDir static Path dir;
  static ServerProcess server;
  static McpSyncClient writer;

  @BeforeAll
  static void start() {
    server = ServerProcess.start(dir, "--no-stdio", "--no-welcome", "--no-semantic");
    writer = McpClients.streamableHttp(server, "writer-b");
    writer.initialize();
  }

  @AfterAll
  static void stop() {
    writer.closeGracefully();
    server.close();
  }

  // ------------------------------------------------------------------ helpers

  @SuppressWarnings("unchecked")
  static JsonObject call(McpSyncClient client, String tool, JsonObject args) {
    // Plain maps and lists all the way down, as a client's JSON library sends them.
    Map<String, Object> plain = io.vertx.core.json.Json.decodeValue(args.encode(), Map.class);
    McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, plain));
    JsonObject answer = new JsonObject((Map<String, Object>) r.structuredContent());
    assertThat(r.isError()).as("%s: %s", tool, answer).isNotEqualTo(Boolean.TRUE);
    return answer;
  }

  static JsonObject create(McpSyncClient client, String path, String md) {
    return call(
        client,
        "gram_create",
        new JsonObject()
            .put("path", path)
            .put("base_revision", (Object) null)
            .put("title", "T")
            .put("content", md))
        .getJsonObject("doc");
  }

  static JsonObject patch(McpSyncClient client, JsonObject doc, String text) {
    return call(
        client,
        "gram_patch",
        new JsonObject()
            .put("path", doc.getString("path"))
            .put("base_revision", doc.getInteger("rev"))
            .put("expected_hash", doc.getString("hash"))
            .put("request_id", "r-" + System.nanoTime())
            .put(
                "operations",
                new JsonArray().add(new JsonObject().put("op", "insert").put("md", text))))
        .getJsonObject("doc");
  }

  /** Resource contents the SDK read after each update, until one contains {@code text}. */
  static String awaitText(BlockingQueue<List<McpSchema.ResourceContents>> updates, String text)
      throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < end) {
      List<McpSchema.ResourceContents> got = updates.poll(200, TimeUnit.MILLISECONDS);
      if (got == null) {
        continue;
      }
      for (McpSchema.ResourceContents c : got) {
        if (c instanceof McpSchema.TextResourceContents t && t.text().contains(text)) {
          return t.uri();
        }
      }
    }
    return null;
  }

  // ------------------------------------------------------------------ 2025 era, SDK

  @Test
  void streamableHttpSubscriberSeesAnotherAgentsPatch() throws Exception {
    JsonObject doc = create(writer, "shared/plan.gram", "# Plan\n\nFirst.");
    BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
    McpSyncClient a =
        McpClients.subscriber(
            McpClients.streamableHttpTransport(server.origin()), "subscriber-a", updates::add);
    try {
      a.initialize();
      assertThat(a.getServerCapabilities().resources().subscribe()).isTrue();
      a.subscribeResource(new McpSchema.SubscribeRequest("gram://shared/plan.gram"));
      patch(writer, doc, "Second, by B.");
      assertThat(awaitText(updates, "Second, by B.")).isEqualTo("gram://shared/plan.gram");
    } finally {
      a.closeGracefully();
    }
  }

  @Test
  void aFolderSubscriptionHearsOfANewDocument() throws Exception {
    BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
    McpSyncClient a =
        McpClients.subscriber(
            McpClients.streamableHttpTransport(server.origin()), "folder-watcher", updates::add);
    try {
      a.initialize();
      a.subscribeResource(new McpSchema.SubscribeRequest("gram://watched/"));
      create(writer, "elsewhere/noise.gram", "# Noise\n\nnot watched");
      create(writer, "watched/new.gram", "# New\n\nBorn while watched.");
      assertThat(awaitText(updates, "Born while watched.")).isEqualTo("gram://watched/new.gram");
      for (List<McpSchema.ResourceContents> got : updates) {
        assertThat(got).noneMatch(c -> c.uri().contains("elsewhere"));
      }
    } finally {
      a.closeGracefully();
    }
  }

  @Test
  void unsubscribeStopsDelivery() throws Exception {
    JsonObject quiet = create(writer, "unsub/quiet.gram", "# Quiet\n\nq0");
    JsonObject marker = create(writer, "unsub/marker.gram", "# Marker\n\nm0");
    BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
    McpSyncClient a =
        McpClients.subscriber(
            McpClients.streamableHttpTransport(server.origin()), "unsubscriber", updates::add);
    try {
      a.initialize();
      a.subscribeResource(new McpSchema.SubscribeRequest("gram://unsub/quiet.gram"));
      quiet = patch(writer, quiet, "q1");
      assertThat(awaitText(updates, "q1")).isNotNull();
      a.unsubscribeResource(new McpSchema.UnsubscribeRequest("gram://unsub/quiet.gram"));
      a.subscribeResource(new McpSchema.SubscribeRequest("gram://unsub/marker.gram"));
      patch(writer, quiet, "q2");
      patch(writer, marker, "m1");
      // One stream, in order: once the marker's update is here, q2's would have been too.
      List<String> texts = new ArrayList<>();
      long end = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() < end && texts.stream().noneMatch(t -> t.contains("m1"))) {
        List<McpSchema.ResourceContents> got = updates.poll(200, TimeUnit.MILLISECONDS);
        if (got != null) {
          got.forEach(c -> texts.add(((McpSchema.TextResourceContents) c).text()));
        }
      }
      assertThat(texts).anyMatch(t -> t.contains("m1"));
      assertThat(texts).noneMatch(t -> t.contains("q2"));
    } finally {
      a.closeGracefully();
    }
  }

  @Test
  void legacySseSubscriberSeesAPatch() throws Exception {
    JsonObject doc = create(writer, "sse/doc.gram", "# SSE\n\ns0");
    BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
    McpSyncClient a =
        McpClients.subscriber(McpClients.sseTransport(server.origin()), "sse-agent", updates::add);
    try {
      a.initialize();
      a.subscribeResource(new McpSchema.SubscribeRequest("gram://sse/"));
      patch(writer, doc, "s1 over sse");
      assertThat(awaitText(updates, "s1 over sse")).isEqualTo("gram://sse/doc.gram");
    } finally {
      a.closeGracefully();
    }
  }

  @Test
  void stdioSubscriberSeesAnHttpAgentsPatch() throws Exception {
    Queue<String> stderr = new ConcurrentLinkedQueue<>();
    BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
    McpSyncClient a =
        McpClients.subscriber(
            McpClients.stdioWithHttp(dir.resolve("stdio"), stderr), "stdio-agent", updates::add);
    try {
      a.initialize();
      String origin = origin(stderr);
      McpSyncClient b = McpClients.build(McpClients.streamableHttpTransport(origin), "http-agent");
      try {
        b.initialize();
        JsonObject doc = create(b, "proj/stdio.gram", "# Stdio\n\nbefore");
        a.subscribeResource(new McpSchema.SubscribeRequest("gram://proj/stdio.gram"));
        patch(b, doc, "after, from http");
        assertThat(awaitText(updates, "after, from http")).isEqualTo("gram://proj/stdio.gram");
      } finally {
        b.closeGracefully();
      }
    } finally {
      a.closeGracefully();
    }
  }

  private static final Pattern LISTENING = Pattern.compile("listening on (http://[^/\\s]+)/mcp");

  static String origin(Queue<String> stderr) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < end) {
      for (String line : stderr) {
        Matcher m = LISTENING.matcher(line);
        if (m.find()) {
          return m.group(1);
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the stdio server never said where HTTP listens: " + stderr);
  }

  @Test
  void aSubscriptionOutsideTheVaultIsRefusedWithEPath() {
    McpSyncClient a = McpClients.streamableHttp(server, "outsider");
    try {
      a.initialize();
      assertThatThrownBy(() -> a.subscribeResource(new McpSchema.SubscribeRequest("gram://../outside/")))
          .isInstanceOf(McpError.class)
          .satisfies(
              e -> {
                McpSchema.JSONRPCResponse.JSONRPCError err = ((McpError) e).getJsonRpcError();
                assertThat(err.code()).isEqualTo(-32602);
                assertThat(String.valueOf(err.data())).contains("E_PATH");
              });
    } finally {
      a.closeGracefully();
    }
  }

  @Test
  void resourcesListReadTemplatesAndPromptsThroughTheSdk() {
    create(writer, "listed/one.gram", "# One\n\nThe first [listed] document.");
    McpSyncClient a = McpClients.streamableHttp(server, "lister");
    try {
      a.initialize();
      McpSchema.ListResourcesResult list = a.listResources();
      assertThat(list.resources()).anyMatch(r -> r.uri().equals("gram://listed/one.gram"));
      McpSchema.ReadResourceResult read =
          a.readResource(new McpSchema.ReadResourceRequest("gram://listed/one.gram"));
      assertThat(read.contents()).hasSize(2);
      assertThat(read.contents().get(0).mimeType()).isEqualTo("text/markdown");
      assertThat(((McpSchema.TextResourceContents) read.contents().get(0)).text())
          .contains("The first [listed] document.");
      assertThat(read.contents().get(1).mimeType()).isEqualTo("text/x-gram");
      assertThat(a.listResourceTemplates().resourceTemplates())
          .extracting(McpSchema.ResourceTemplate::uriTemplate)
          .containsExactly("gram://{+path}");
      assertThat(a.listPrompts().prompts())
          .extracting(McpSchema.Prompt::name)
          .contains("orient", "record_decision", "catch_up");
      McpSchema.GetPromptResult prompt =
          a.getPrompt(new McpSchema.GetPromptRequest("orient", Map.of("folder", "listed")));
      assertThat(((McpSchema.TextContent) prompt.messages().get(0).content()).text())
          .contains("gram_brief");
    } finally {
      a.closeGracefully();
    }
  }

  // ------------------------------------------------------------------ 2026-07-28, raw HTTP

  @Test
  void modernListenHonoursItsFilterAndSaysEnoughToAct() throws Exception {
    JsonObject wanted = create(writer, "modern/wanted.gram", "# W\n\nw0");
    JsonObject other = create(writer, "modern/other.gram", "# O\n\no0");
    try (ModernListen listen =
        ModernListen.open(
            server.mcpUrl(),
            "sub-1",
            new JsonObject()
                .put("resourceSubscriptions", new JsonArray().add("gram://modern/wanted.gram"))
                .put("toolsListChanged", true))) {
      assertThat(listen.status()).isEqualTo(200);
      JsonObject ack = listen.next(WAIT);
      assertThat(ack.getString("method")).isEqualTo("notifications/subscriptions/acknowledged");
      JsonObject honoured = ack.getJsonObject("params").getJsonObject("notifications");
      assertThat(honoured.getJsonArray("resourceSubscriptions")).containsExactly("gram://modern/wanted.gram");
      assertThat(honoured.containsKey("toolsListChanged")).isFalse();
      patch(writer, other, "o1");
      JsonObject after = patch(writer, wanted, "w1");
      JsonObject n = listen.next("notifications/resources/updated", WAIT);
      assertThat(n).isNotNull();
      JsonObject params = n.getJsonObject("params");
      assertThat(params.getString("uri")).isEqualTo("gram://modern/wanted.gram");
      JsonObject meta = params.getJsonObject("_meta");
      assertThat(meta.getValue("io.modelcontextprotocol/subscriptionId")).isEqualTo("sub-1");
      assertThat(meta.getString("path")).isEqualTo("modern/wanted.gram");
      assertThat(meta.getInteger("rev")).isEqualTo(after.getInteger("rev"));
      assertThat(meta.getString("hash")).isEqualTo(after.getString("hash"));
      assertThat(meta.getString("by")).isEqualTo("writer-b");
      assertThat(meta.getString("summary")).matches("\\+\\d+ ~\\d+ -\\d+");
      assertThat(listen.next(Duration.ofMillis(300))).isNull();
    }
  }

  @Test
  void aStalledSubscriberDoesNotHoldUpAWriter() throws Exception {
    JsonObject doc = create(writer, "stalled/doc.gram", "# S\n\n" + "x".repeat(2000));
    try (ModernListen stalled =
        ModernListen.stalled(
            server.mcpUrl(),
            "stalled",
            new JsonObject().put("resourceSubscriptions", new JsonArray().add("gram://")))) {
      assertThat(stalled.status()).isEqualTo(200);
      long slowest = 0;
      for (int i = 0; i < 200; i++) {
        long t0 = System.nanoTime();
        doc = patch(writer, doc, "line " + i + " " + "y".repeat(500));
        slowest = Math.max(slowest, System.nanoTime() - t0);
      }
      assertThat(doc.getInteger("rev")).isEqualTo(200);
      // Generous: a writer held up by delivery would wait for the stalled client forever.
      assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofSeconds(5));
    }
  }
}
