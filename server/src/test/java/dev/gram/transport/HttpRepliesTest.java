package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.MetaKeys;
import dev.gram.protocol.ProtocolMetrics;
import dev.gram.protocol.ProtocolVersions;
import dev.gram.protocol.Reply;
import dev.gram.protocol.ServerInfo;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The statuses the HTTP transports give the dispatcher's outcomes: the protocol names the kind of
 * outcome, and {@link HttpReplies} alone turns it into a status. Pinned here for every kind, and for
 * the dispatcher's real replies, so a change to either side shows.
 */
class HttpRepliesTest {
  private Vertx vertx;
  private McpDispatcher dispatcher;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    dispatcher = new McpDispatcher(vertx, new ToolRegistry(List.of()),
        new ServerInfo("gram-mcp", "test", null), ProtocolMetrics.NONE);
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private Reply handle(JsonRpc.Message message, Channel channel) throws Exception {
    return dispatcher.handle(message, channel).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private int status(Channel channel, String method, JsonObject params) throws Exception {
    return HttpReplies.status(handle(new JsonRpc.Request(1, method, params), channel));
  }

  private static JsonObject modern(boolean capabilities) {
    JsonObject meta = new JsonObject().put(MetaKeys.PROTOCOL_VERSION, "2026-07-28");
    if (capabilities) {
      meta.put(MetaKeys.CLIENT_CAPABILITIES, new JsonObject());
    }
    return new JsonObject().put("_meta", meta);
  }

  private Channel session() throws Exception {
    Channel ch = new Channel("http", "s", m -> {});
    handle(new JsonRpc.Request(0, "initialize", new JsonObject().put("protocolVersion", "2025-11-25")), ch);
    return ch;
  }

  @Test
  void everyKindOfOutcomeHasItsStatus() {
    JsonObject msg = JsonRpc.error(1, JsonRpc.INTERNAL_ERROR, "x");
    assertThat(HttpReplies.status(new Reply.Result(JsonRpc.result(1, new JsonObject())))).isEqualTo(200);
    assertThat(HttpReplies.status(new Reply.Error(msg, Reply.ErrorKind.INVALID_MESSAGE))).isEqualTo(400);
    assertThat(HttpReplies.status(new Reply.Error(msg, Reply.ErrorKind.UNKNOWN_METHOD))).isEqualTo(404);
    assertThat(HttpReplies.status(new Reply.Error(msg, Reply.ErrorKind.METHOD_ERROR))).isEqualTo(200);
    assertThat(HttpReplies.status(new Reply.Error(msg, Reply.ErrorKind.INTERNAL))).isEqualTo(500);
    assertThat(HttpReplies.status(Reply.ACCEPTED)).isEqualTo(202);
    assertThat(HttpReplies.status(Reply.CANCELLED)).isEqualTo(204);
  }

  @Test
  void theDispatchersRepliesGetTheStatusesTheyAlwaysHad() throws Exception {
    Channel fresh = new Channel("http", "r", m -> {});
    assertThat(status(fresh, "server/discover", modern(true))).isEqualTo(200);
    assertThat(status(fresh, "tools/list", modern(false))).as("no clientCapabilities").isEqualTo(400);
    assertThat(status(fresh, "resources/list", modern(true))).as("unknown modern method").isEqualTo(404);
    assertThat(status(fresh, "tools/call", modern(true).put("name", "nope"))).as("unknown tool").isEqualTo(200);
    assertThat(status(fresh, "tools/list", modern(true).put("cursor", "c"))).as("unknown cursor").isEqualTo(200);
    assertThat(status(fresh, "tools/list", new JsonObject())).as("neither era").isEqualTo(400);
    JsonObject legacyMeta = new JsonObject().put("_meta", new JsonObject().put(MetaKeys.PROTOCOL_VERSION, "2025-06-18"));
    assertThat(status(fresh, "tools/list", legacyMeta)).as("legacy version without handshake").isEqualTo(400);
    JsonObject unknownVersion = new JsonObject().put("_meta", new JsonObject().put(MetaKeys.PROTOCOL_VERSION, "1999-12-31"));
    assertThat(status(fresh, "tools/list", unknownVersion)).as("-32022").isEqualTo(400);
    assertThat(HttpReplies.status(ProtocolVersions.unsupported(null, "0"))).isEqualTo(400);
    assertThat(status(fresh, "initialize", new JsonObject().put("protocolVersion", 5))).isEqualTo(400);

    Channel session = session();
    assertThat(status(session, "ping", new JsonObject())).isEqualTo(200);
    assertThat(status(session, "resources/list", new JsonObject())).as("unknown legacy method").isEqualTo(200);
    assertThat(status(session, "initialize", new JsonObject().put("protocolVersion", "2025-11-25")))
        .as("second initialize").isEqualTo(400);

    assertThat(HttpReplies.status(handle(JsonRpc.parse("{"), fresh))).isEqualTo(400);
    assertThat(HttpReplies.status(handle(new JsonRpc.Notification("notifications/initialized", new JsonObject()), session)))
        .isEqualTo(202);
    assertThat(HttpReplies.status(handle(new JsonRpc.Response(3), session))).isEqualTo(202);
  }
}
