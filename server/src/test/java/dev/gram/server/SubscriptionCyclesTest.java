package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import dev.gram.protocol.Reply;
import dev.gram.testing.GramTestServer;
import dev.gram.testing.StdioClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subscriptions end with their channel: many clients that subscribe and go away leave nothing
 * behind. Counted, not timed: the live subscriptions and the change feed's listeners return to
 * zero. Runs through the dispatcher every transport uses, on channels as transports make them.
 */
class SubscriptionCyclesTest {
  @TempDir static Path dir;
  static GramTestServer server;

  @BeforeAll
  static void start() {
    server = GramTestServer.start(dir.resolve("vault"));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Reply await(Future<Reply> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void tenThousandSubscribeDisconnectCyclesLeaveNothingLive() throws Exception {
    McpDispatcher d = server.dispatcher();
    int listenersBefore = server.services().resources().changes().listeners();
    for (int i = 0; i < 10_000; i++) {
      Channel channel = new Channel("stdio", "cycle-" + i, m -> {});
      if (i % 2 == 0) {
        await(
            d.handle(
                new JsonRpc.Request(
                    "i",
                    "initialize",
                    new JsonObject()
                        .put("protocolVersion", "2025-11-25")
                        .put("capabilities", new JsonObject())),
                channel));
        Reply sub =
            await(
                d.handle(
                    new JsonRpc.Request(
                        "s", "resources/subscribe", new JsonObject().put("uri", "gram://p" + i + "/")),
                    channel));
        assertThat(sub).isInstanceOf(Reply.Result.class);
      } else {
        Future<Reply> listen =
            d.handle(
                new JsonRpc.Request(
                    "l",
                    "subscriptions/listen",
                    new JsonObject()
                        .put("_meta", StdioClient.modernMeta("cycler"))
                        .put(
                            "notifications",
                            new JsonObject()
                                .put("resourceSubscriptions", new JsonArray().add("gram://"))
                                .put("resourcesListChanged", true))),
                channel);
        assertThat(listen.isComplete()).isFalse();
      }
      assertThat(d.liveSubscriptions()).isEqualTo(1);
      channel.close("client went away");
    }
    assertThat(d.liveSubscriptions()).isZero();
    assertThat(server.services().resources().changes().listeners()).isEqualTo(listenersBefore);
  }

  @Test
  void aSubscriptionOutsideTheVaultIsRefusedWithEPath() throws Exception {
    McpDispatcher d = server.dispatcher();
    Channel channel = new Channel("stdio", "outside", m -> {});
    await(
        d.handle(
            new JsonRpc.Request(
                "i",
                "initialize",
                new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())),
            channel));
    for (String uri : new String[] {"gram://../secret/", "gram:///etc/passwd", "gram://p/../../x.gram"}) {
      Reply r =
          await(
              d.handle(
                  new JsonRpc.Request("s", "resources/subscribe", new JsonObject().put("uri", uri)),
                  channel));
      JsonObject error = r.message().getJsonObject("error");
      assertThat(error.getInteger("code")).as(uri).isEqualTo(JsonRpc.INVALID_PARAMS);
      assertThat(error.getJsonObject("data").getString("code")).as(uri).isEqualTo("E_PATH");
    }
    Channel modern = new Channel("http", "outside-modern", m -> {});
    Reply refused =
        await(
            d.handle(
                new JsonRpc.Request(
                    "l",
                    "subscriptions/listen",
                    new JsonObject()
                        .put("_meta", StdioClient.modernMeta("outsider"))
                        .put(
                            "notifications",
                            new JsonObject()
                                .put("resourceSubscriptions", new JsonArray().add("gram://../x/")))),
                modern));
    assertThat(refused.message().getJsonObject("error").getJsonObject("data").getString("code"))
        .isEqualTo("E_PATH");
    assertThat(d.liveSubscriptions()).isZero();
    channel.close("done");
  }
}
