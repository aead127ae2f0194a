package dev.gram.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Revisions on their way to another node: alone while the node keeps up, together while a batch
 * is in flight, in the order they were handed over, each with its own answer. The other node here
 * is a consumer on a real event bus that answers when the test says.
 */
class ReplicationOutboxTest {
  private static final String ADDRESS = "test.follow";
  private Vertx vertx;
  private final BlockingQueue<Message<JsonObject>> received = new LinkedBlockingQueue<>();
  private ReplicationOutbox outbox;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    vertx.eventBus().<JsonObject>consumer(ADDRESS, received::add).completion()
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    outbox = new ReplicationOutbox(vertx, ADDRESS, new DeliveryOptions().setSendTimeout(30_000));
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private Message<JsonObject> next() throws InterruptedException {
    Message<JsonObject> m = received.poll(10, TimeUnit.SECONDS);
    assertThat(m).as("a batch reached the other node").isNotNull();
    return m;
  }

  /** The revisions a batch carries, as "path=text". */
  private static List<String> carried(Message<JsonObject> m) {
    JsonArray a = m.body().getJsonArray("revisions");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i += 2) {
      out.add(a.getString(i) + "=" + a.getString(i + 1));
    }
    return out;
  }

  private static JsonObject result(Future<JsonObject> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void revisionsHandedOverWhileABatchIsInFlightLeaveTogetherInOrder() throws Exception {
    Future<JsonObject> a = outbox.send("x.gram", "r1");
    Message<JsonObject> first = next();
    assertThat(carried(first)).containsExactly("x.gram=r1");
    Future<JsonObject> b = outbox.send("y.gram", "r1");
    Future<JsonObject> c = outbox.send("x.gram", "r2");
    assertThat(a.isComplete()).as("answered before the other node did").isFalse();
    first.reply(new JsonObject());
    assertThat(result(a)).isEqualTo(new JsonObject());
    Message<JsonObject> second = next();
    assertThat(carried(second)).containsExactly("y.gram=r1", "x.gram=r2");
    // The other node refused the second of the batch: that one, and only that one, hears why.
    second.reply(new JsonObject().put("refused", new JsonObject().put("1", new JsonObject().put("message", "no"))));
    assertThat(result(b)).isEqualTo(new JsonObject());
    assertThat(result(c).getString("message")).isEqualTo("no");
    // Idle again: the next revision leaves at once, alone.
    Future<JsonObject> d = outbox.send("z.gram", "r1");
    Message<JsonObject> third = next();
    assertThat(carried(third)).containsExactly("z.gram=r1");
    third.reply(new JsonObject());
    assertThat(result(d)).isEqualTo(new JsonObject());
  }

  @Test
  void aBatchWithoutAnAnswerFailsEachOfItsRevisions() throws Exception {
    Future<JsonObject> a = outbox.send("x.gram", "r1");
    Message<JsonObject> first = next();
    Future<JsonObject> b = outbox.send("x.gram", "r2");
    Future<JsonObject> c = outbox.send("y.gram", "r1");
    first.fail(500, "gone");
    assertThat(a.toCompletionStage().toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS);
    Message<JsonObject> second = next();
    assertThat(carried(second)).containsExactly("x.gram=r2", "y.gram=r1");
    second.fail(500, "gone");
    assertThat(b.toCompletionStage().toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS);
    assertThat(c.toCompletionStage().toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS);
  }

  @Test
  void aBatchCarriesAtMostItsLimit() throws Exception {
    outbox.send("x.gram", "r0");
    Message<JsonObject> first = next();
    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 1; i <= ReplicationOutbox.MAX_REVISIONS + 10; i++) {
      all.add(outbox.send("x.gram", "r" + i));
    }
    String large = "x".repeat(ReplicationOutbox.MAX_CHARS - 10);
    all.add(outbox.send("big.gram", large));
    first.reply(new JsonObject());
    Message<JsonObject> second = next();
    assertThat(carried(second)).hasSize(ReplicationOutbox.MAX_REVISIONS).startsWith("x.gram=r1");
    second.reply(new JsonObject());
    Message<JsonObject> third = next();
    assertThat(carried(third)).hasSize(10).endsWith("x.gram=r" + (ReplicationOutbox.MAX_REVISIONS + 10));
    third.reply(new JsonObject());
    Message<JsonObject> fourth = next();
    assertThat(carried(fourth)).containsExactly("big.gram=" + large);
    fourth.reply(new JsonObject());
    for (Future<JsonObject> f : all) {
      assertThat(result(f)).isEqualTo(new JsonObject());
    }
  }
}
