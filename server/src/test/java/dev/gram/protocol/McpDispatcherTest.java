package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The dispatcher's MCP semantics, transport-free, with tools whose behaviour each test controls. */
class McpDispatcherTest {
  private Vertx vertx;
  private McpDispatcher dispatcher;
  private final List<JsonObject> outbound = new CopyOnWriteArrayList<>();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final AtomicReference<Promise<JsonObject>> slow = new AtomicReference<>();
  private final AtomicBoolean slowSawCancel = new AtomicBoolean();
  private final AtomicReference<dev.gram.tools.spi.CallContext> slowContext = new AtomicReference<>();

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    List<dev.gram.tools.spi.Tool> tools = List.of(
        new FakeTool("echo", (args, ctx) -> Future.succeededFuture(args)),
        new FakeTool("who", (args, ctx) -> Future.succeededFuture(new JsonObject().put("agent", ctx.agent()))),
        new FakeTool("fail", (args, ctx) -> Future.failedFuture(new GramException(ErrorCode.STALE_REVISION,
            "Accepted revision or hash changed", new JsonObject().put("rev", 3).put("hash", "abc")))),
        new FakeTool("boom", (args, ctx) -> { throw new IllegalStateException("secret stack detail"); }),
        new FakeTool("huge", (args, ctx) -> Future.succeededFuture(new JsonObject().put("text", "x".repeat(20_000)))),
        // Answers later, from another thread, with a value JSON cannot encode.
        new FakeTool("unencodable", (args, ctx) -> {
          Promise<JsonObject> p = Promise.promise();
          vertx.setTimer(1, t -> p.complete(new JsonObject().put("value", java.time.LocalDate.of(2026, 1, 1))));
          return p.future();
        }),
        new FakeTool("slow", (args, ctx) -> {
          Promise<JsonObject> p = Promise.promise();
          slow.set(p);
          slowContext.set(ctx);
          ctx.progress(0.5, 1.0, "half");
          ctx.progress(0.5, 1.0, "again");
          ctx.progress(0.25, 1.0, "backwards");
          ctx.progress(1.0, 1.0, null);
          return p.future().onComplete(x -> slowSawCancel.set(ctx.cancelled()));
        }));
    ProtocolMetrics metrics = new ProtocolMetrics() {
      @Override
      public void toolCall(String tool, String transport, long nanos, String errorCode, boolean cancelled) {
        calls.add(tool + "/" + transport + "/" + errorCode + "/" + cancelled);
      }

      @Override
      public void protocolError(String method, int code) {
        calls.add("protocol/" + code);
      }
    };
    dispatcher = new McpDispatcher(vertx, new ToolRegistry(tools), new ServerInfo("gram-mcp", "t", "hello"), metrics);
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private Channel channel(String transport) {
    return new Channel(transport, "test", outbound::add);
  }

  private static Reply await(Future<Reply> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private Reply request(Channel ch, Object id, String method, JsonObject params) {
    return await(dispatcher.handle(new JsonRpc.Request(id, method, params), ch));
  }

  private static JsonObject modern(String client) {
    JsonObject meta = new JsonObject()
        .put(MetaKeys.PROTOCOL_VERSION, "2026-07-28")
        .put(MetaKeys.CLIENT_CAPABILITIES, new JsonObject());
    if (client != null) {
      meta.put(MetaKeys.CLIENT_INFO, new JsonObject().put("name", client).put("version", "1"));
    }
    return new JsonObject().put("_meta", meta);
  }

  private Channel initialized(String transport, String client) {
    Channel ch = channel(transport);
    JsonObject params = new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject());
    if (client != null) {
      params.put("clientInfo", new JsonObject().put("name", client).put("version", "1"));
    }
    assertThat(request(ch, 0, "initialize", params).message().getJsonObject("result")).isNotNull();
    return ch;
  }

  private static JsonObject result(Reply r) {
    assertThat(r).as(String.valueOf(r.message())).isInstanceOf(Reply.Result.class);
    assertThat(r.message().containsKey("error")).as(r.message().encode()).isFalse();
    return r.message().getJsonObject("result");
  }

  private static JsonObject error(Reply r) {
    return r.message().getJsonObject("error");
  }

  /** The kind of a JSON-RPC error reply; the transports choose its status from this alone. */
  private static Reply.ErrorKind kind(Reply r) {
    assertThat(r).as(String.valueOf(r.message())).isInstanceOf(Reply.Error.class);
    return ((Reply.Error) r).kind();
  }

  // ------------------------------------------------------------------ handshake

  @ParameterizedTest
  @CsvSource({
    "2024-11-05, 2024-11-05",
    "2025-03-26, 2025-03-26",
    "2025-06-18, 2025-06-18",
    "2025-11-25, 2025-11-25",
    "2099-01-01, 2025-11-25",
    "2026-07-28, 2025-11-25"
  })
  void initializeAnswersTheClientsVersionWhenSupportedElseOurNewestLegacyOne(String asked, String answered) {
    Reply r = request(channel("stdio"), 1, "initialize",
        new JsonObject().put("protocolVersion", asked).put("capabilities", new JsonObject()));
    JsonObject result = result(r);
    assertThat(result.getString("protocolVersion")).isEqualTo(answered);
    assertThat(result.getJsonObject("capabilities").getJsonObject("tools")).isNotNull();
    assertThat(result.getJsonObject("serverInfo").getString("name")).isEqualTo("gram-mcp");
    assertThat(result.getString("instructions")).isEqualTo("hello");
  }

  @Test
  void initializeUnder2026MetaIsAnUnknownMethodOnEveryTransport() {
    Reply r = request(channel("stdio"), 9, "initialize",
        modern("a").put("protocolVersion", "2026-07-28").put("capabilities", new JsonObject()));
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.UNKNOWN_METHOD);
    assertThat(r.message().getValue("id")).isEqualTo(9);
  }

  @Test
  void aSecondInitializeOnTheSameChannelIsRefused() {
    Channel ch = initialized("stdio", null);
    Reply r = request(ch, 2, "initialize", new JsonObject().put("protocolVersion", "2025-11-25"));
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
  }

  @Test
  void requestsWithNeitherHandshakeNorMetaAreInvalidParamsButPingIsAnswered() {
    Reply r = request(channel("stdio"), 1, "tools/list", new JsonObject());
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
    assertThat(result(request(channel("stdio"), 2, "ping", new JsonObject()))).isEqualTo(new JsonObject());
  }

  @Test
  void theServersOwnWarmUpCallsAreNotAClientsActivity() {
    Channel warm = Channel.warmup("test");
    JsonObject params = new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject());
    assertThat(request(warm, 0, "initialize", params).message().getJsonObject("result")).isNotNull();
    assertThat(result(request(warm, 1, "tools/call", new JsonObject().put("name", "echo")))).isNotNull();
    assertThat(dispatcher.handshakeOver().isComplete()).isFalse();
    assertThat(dispatcher.lastRequestNanos()).isZero();
    assertThat(calls).contains("echo/warmup/null/false");

    Channel client = initialized("stdio", null);
    result(request(client, 1, "tools/call", new JsonObject().put("name", "echo")));
    assertThat(dispatcher.handshakeOver().isComplete()).isTrue();
    assertThat(dispatcher.lastRequestNanos()).isPositive();
  }

  // ------------------------------------------------------------------ modern

  @Test
  void modernResultsCarryResultTypeServerInfoAndListsCarryCacheHints() {
    JsonObject list = result(request(channel("http"), 1, "tools/list", modern("m")));
    assertThat(list.getString("resultType")).isEqualTo("complete");
    assertThat(list.getLong("ttlMs")).isEqualTo(ModernEra.LIST_TTL_MS);
    assertThat(list.getString("cacheScope")).isEqualTo("public");
    assertThat(list.getJsonObject("_meta").getJsonObject(MetaKeys.SERVER_INFO).getString("name")).isEqualTo("gram-mcp");

    JsonObject call = result(request(channel("http"), 2, "tools/call", modern("m").put("name", "echo")));
    assertThat(call.getString("resultType")).isEqualTo("complete");

    JsonObject legacy = result(request(initialized("http", null), 3, "tools/list", new JsonObject()));
    assertThat(legacy.fieldNames()).containsExactly("tools");
  }

  @Test
  void modernRequestWithoutClientCapabilitiesIsAnInvalidMessage() {
    JsonObject params = new JsonObject().put("_meta", new JsonObject().put(MetaKeys.PROTOCOL_VERSION, "2026-07-28"));
    Reply r = request(channel("http"), 1, "tools/list", params);
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
  }

  @Test
  void unsupportedVersionInMetaIsMinus32022WithSupportedAndRequested() {
    JsonObject params = modern(null);
    params.getJsonObject("_meta").put(MetaKeys.PROTOCOL_VERSION, "1999-12-31");
    Reply r = request(channel("http"), 1, "tools/list", params);
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.UNSUPPORTED_PROTOCOL_VERSION);
    assertThat(error(r).getJsonObject("data").getJsonArray("supported").getList()).containsExactlyElementsOf(ProtocolVersions.ALL);
    assertThat(error(r).getJsonObject("data").getString("requested")).isEqualTo("1999-12-31");
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
  }

  @Test
  void aLegacyVersionInMetaNeedsTheHandshake() {
    JsonObject params = modern(null);
    params.getJsonObject("_meta").put(MetaKeys.PROTOCOL_VERSION, "2025-06-18");
    Reply refused = request(channel("http"), 1, "tools/list", params);
    assertThat(error(refused).getInteger("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(kind(refused)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
    assertThat(result(request(initialized("http", null), 2, "tools/list", params)).getJsonArray("tools")).isNotEmpty();
  }

  @Test
  void unknownModernMethodsAreUnknownMethodsAndPingIsGoneInTheModernEra() {
    Reply r = request(channel("http"), 1, "resources/list", modern(null));
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.UNKNOWN_METHOD);
    Reply ping = request(channel("http"), 2, "ping", modern(null));
    assertThat(error(ping).getInteger("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
    assertThat(kind(ping)).isEqualTo(Reply.ErrorKind.UNKNOWN_METHOD);
  }

  @Test
  void aLegacySessionAnswersAnUnknownMethodAsAnErrorOfTheMethod() {
    Reply r = request(initialized("http", null), 1, "server/discover", new JsonObject());
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.METHOD_ERROR);
  }

  @Test
  void discoverListsEveryVersionNewestFirst() {
    JsonObject d = result(request(channel("stdio"), 1, "server/discover", modern(null)));
    assertThat(d.getJsonArray("supportedVersions").getList()).containsExactlyElementsOf(ProtocolVersions.ALL);
    assertThat(d.getString("instructions")).isEqualTo("hello");
    assertThat(d.getLong("ttlMs")).isPositive();
  }

  // ------------------------------------------------------------------ tools

  @Test
  void toolDefinitionsCarryAnnotations() {
    JsonArray tools = result(request(channel("stdio"), 1, "tools/list", modern(null))).getJsonArray("tools");
    JsonObject echo = tools.getJsonObject(0);
    assertThat(echo.getString("name")).isEqualTo("echo");
    assertThat(echo.getJsonObject("annotations").getBoolean("readOnlyHint")).isTrue();
    assertThat(echo.getJsonObject("annotations").getBoolean("destructiveHint")).isFalse();
    assertThat(echo.getJsonObject("inputSchema").getBoolean("additionalProperties")).isFalse();
  }

  @Test
  void successIsTextAndStructuredContentOfTheSameJson() {
    JsonObject args = new JsonObject().put("text", "héllo \"quoted\"\nline").put("size", 3);
    JsonObject r = result(request(initialized("stdio", null), 1, "tools/call", new JsonObject().put("name", "echo").put("arguments", args)));
    assertThat(r.getJsonObject("structuredContent")).isEqualTo(args);
    JsonObject text = r.getJsonArray("content").getJsonObject(0);
    assertThat(text.getString("type")).isEqualTo("text");
    assertThat(new JsonObject(text.getString("text"))).isEqualTo(args);
    assertThat(r.containsKey("isError")).isFalse();
    assertThat(calls).contains("echo/stdio/null/false");
  }

  @Test
  void aToolExceptionIsAnErrorResultWithCodeMessageAndDetails() {
    JsonObject r = result(request(initialized("stdio", null), 1, "tools/call", new JsonObject().put("name", "fail")));
    assertThat(r.getBoolean("isError")).isTrue();
    JsonObject error = r.getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("STALE_REVISION");
    assertThat(error.getString("message")).isEqualTo("Accepted revision or hash changed");
    assertThat(error.getJsonObject("details").getInteger("rev")).isEqualTo(3);
    assertThat(new JsonObject(r.getJsonArray("content").getJsonObject(0).getString("text"))).isEqualTo(r.getJsonObject("structuredContent"));
    assertThat(calls).contains("fail/stdio/STALE_REVISION/false");
  }

  @Test
  void anyOtherFailureIsEInternalWithoutItsDetails() {
    JsonObject r = result(request(initialized("stdio", null), 1, "tools/call", new JsonObject().put("name", "boom")));
    assertThat(r.getBoolean("isError")).isTrue();
    JsonObject error = r.getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("E_INTERNAL");
    assertThat(r.encode()).doesNotContain("secret stack detail").doesNotContain("IllegalStateException");
  }

  @Test
  void anAnswerThatCannotBeShapedStillGetsAnAnswer() {
    Channel ch = initialized("stdio", null);
    Reply r = request(ch, 1, "tools/call", new JsonObject().put("name", "unencodable"));
    assertThat(error(r).getInteger("code")).isEqualTo(JsonRpc.INTERNAL_ERROR);
    assertThat(kind(r)).isEqualTo(Reply.ErrorKind.INTERNAL);
    assertThat(r.message().getValue("id")).isEqualTo(1);
    // The call is over: the same id can be used again, and other calls go on.
    assertThat(result(request(ch, 1, "tools/call", new JsonObject().put("name", "echo"))).getBoolean("isError")).isNotEqualTo(true);
  }

  @Test
  void anAnswerOverTheBudgetBecomesEContextBudget() {
    JsonObject r = result(request(initialized("stdio", null), 1, "tools/call", new JsonObject().put("name", "huge")));
    assertThat(r.getBoolean("isError")).isTrue();
    JsonObject error = r.getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("E_CONTEXT_BUDGET");
    assertThat(error.getJsonObject("details").getInteger("budget_bytes")).isEqualTo(16384);
    assertThat(r.encode().length()).isLessThan(16384);
  }

  @Test
  void argumentsAreValidatedBeforeTheToolRuns() {
    Channel ch = initialized("stdio", null);
    JsonObject unknown = result(request(ch, 1, "tools/call", new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("colour", 1))));
    assertThat(unknown.getJsonObject("structuredContent").getJsonObject("error").getString("message")).isEqualTo("Unknown argument colour");
    JsonObject typed = result(request(ch, 2, "tools/call", new JsonObject().put("name", "echo").put("arguments", new JsonObject().put("size", "big"))));
    JsonObject error = typed.getJsonObject("structuredContent").getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("E_ARGUMENT");
    assertThat(error.getString("message")).startsWith("Invalid argument size");
  }

  @Test
  void unknownToolsAndNonObjectArgumentsAreInvalidParams() {
    Channel ch = initialized("stdio", null);
    Reply unknown = request(ch, 1, "tools/call", new JsonObject().put("name", "nope"));
    assertThat(error(unknown).getInteger("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(kind(unknown)).isEqualTo(Reply.ErrorKind.METHOD_ERROR);
    assertThat(error(request(ch, 2, "tools/call", new JsonObject().put("name", "echo").put("arguments", new JsonArray()))).getInteger("code"))
        .isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(error(request(ch, 3, "tools/call", new JsonObject())).getInteger("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat(calls).contains("protocol/-32602");
  }

  @ParameterizedTest
  @CsvSource({"legacy-agent, , legacy-agent", ", modern-agent, modern-agent", ", , stdio"})
  void theAgentIsTheClientsNameElseTheTransport(String legacyName, String modernName, String expected) {
    Reply r;
    if (modernName != null) {
      r = request(channel("stdio"), 1, "tools/call", modern(modernName).put("name", "who"));
    } else {
      r = request(initialized("stdio", legacyName), 1, "tools/call", new JsonObject().put("name", "who"));
    }
    assertThat(result(r).getJsonObject("structuredContent").getString("agent")).isEqualTo(expected);
  }

  // ------------------------------------------------------------------ cancellation and progress

  @Test
  void progressGoesToTheRequestsStreamOnlyWhenAskedAndOnlyForward() {
    Channel ch = initialized("stdio", null);
    JsonObject params = new JsonObject().put("name", "slow").put("_meta", new JsonObject().put("progressToken", "tok"));
    Future<Reply> pending = dispatcher.handle(new JsonRpc.Request(1, "tools/call", params), ch);
    assertThat(outbound).extracting(m -> m.getJsonObject("params").getDouble("progress")).containsExactly(0.5, 1.0);
    assertThat(outbound.get(0).getString("method")).isEqualTo("notifications/progress");
    assertThat(outbound.get(0).getJsonObject("params").getString("progressToken")).isEqualTo("tok");
    assertThat(outbound.get(0).getJsonObject("params").getString("message")).isEqualTo("half");
    slow.get().complete(new JsonObject().put("done", true));
    assertThat(result(await(pending)).getJsonObject("structuredContent").getBoolean("done")).isTrue();

    outbound.clear();
    Future<Reply> quiet = dispatcher.handle(new JsonRpc.Request(2, "tools/call", new JsonObject().put("name", "slow")), ch);
    assertThat(outbound).isEmpty();
    slow.get().complete(new JsonObject());
    await(quiet);
  }

  @Test
  void cancelledCallsAnswerNothingTheToolSeesItAndDrainWaitsForTheTool() {
    Channel ch = initialized("stdio", null);
    Future<Reply> pending = dispatcher.handle(new JsonRpc.Request("c1", "tools/call", new JsonObject().put("name", "slow")), ch);
    assertThat(dispatcher.running()).isEqualTo(1);
    await(dispatcher.handle(new JsonRpc.Notification("notifications/cancelled",
        new JsonObject().put("requestId", "c1").put("reason", "user")), ch));
    assertThat(await(pending)).isSameAs(Reply.CANCELLED);
    assertThat(await(pending).isNone()).isTrue();
    assertThat(slowContext.get().cancelled()).isTrue();

    Future<Void> drained = dispatcher.drain(Duration.ofSeconds(5));
    assertThat(drained.isComplete()).as("drain waits for the tool itself").isFalse();
    slow.get().complete(new JsonObject());
    await(drained.map(v -> Reply.ACCEPTED));
    assertThat(dispatcher.running()).isZero();
    assertThat(slowSawCancel.get()).isTrue();
    assertThat(calls).contains("slow/stdio/null/true");
  }

  @Test
  void closingAChannelCancelsEverythingOnIt() {
    Channel ch = channel("http");
    Future<Reply> pending = dispatcher.handle(new JsonRpc.Request(5, "tools/call", modern(null).put("name", "slow")), ch);
    ch.close("stream closed");
    assertThat(await(pending)).isSameAs(Reply.CANCELLED);
    assertThat(await(pending).isNone()).isTrue();
    slow.get().complete(new JsonObject());
  }

  @Test
  void aRequestIdAlreadyInFlightIsRefused() {
    Channel ch = initialized("stdio", null);
    Future<Reply> first = dispatcher.handle(new JsonRpc.Request(9, "tools/call", new JsonObject().put("name", "slow")), ch);
    Reply second = request(ch, 9, "tools/call", new JsonObject().put("name", "echo"));
    assertThat(error(second).getInteger("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
    assertThat(kind(second)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
    slow.get().complete(new JsonObject());
    assertThat(result(await(first))).isNotNull();
  }

  @Test
  void subscriptionsAreAcknowledgedAndEndGracefullyAtShutdown() {
    List<JsonObject> stream = new CopyOnWriteArrayList<>();
    Future<Reply> listen = dispatcher.handle(new JsonRpc.Request("s1", "subscriptions/listen",
        modern(null).put("notifications", new JsonObject().put("toolsListChanged", true))), channel("http"), stream::add);
    assertThat(stream).hasSize(1);
    JsonObject ack = stream.get(0);
    assertThat(ack.getString("method")).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(ack.getJsonObject("params").getJsonObject("_meta").getString(MetaKeys.SUBSCRIPTION_ID)).isEqualTo("s1");
    assertThat(listen.isComplete()).isFalse();
    dispatcher.endSubscriptions();
    JsonObject end = result(await(listen));
    assertThat(end.getString("resultType")).isEqualTo("complete");
    assertThat(end.getJsonObject("_meta").getString(MetaKeys.SUBSCRIPTION_ID)).isEqualTo("s1");
  }

  // ------------------------------------------------------------------ other messages

  @Test
  void notificationsResponsesAndInvalidMessages() {
    Channel ch = channel("stdio");
    Reply initialized = await(dispatcher.handle(new JsonRpc.Notification("notifications/initialized", new JsonObject()), ch));
    assertThat(initialized.isNone()).isTrue();
    assertThat(initialized).isSameAs(Reply.ACCEPTED);
    assertThat(ch.initialized()).isTrue();
    Reply response = await(dispatcher.handle(new JsonRpc.Response(4), ch));
    assertThat(response.isNone()).isTrue();
    assertThat(response).isSameAs(Reply.ACCEPTED);
    Reply invalid = await(dispatcher.handle(JsonRpc.parse("{"), ch));
    assertThat(invalid.message().getJsonObject("error").getInteger("code")).isEqualTo(JsonRpc.PARSE_ERROR);
    assertThat(kind(invalid)).isEqualTo(Reply.ErrorKind.INVALID_MESSAGE);
  }
}
