package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.index.Recall;
import dev.gram.testing.IoGate;
import dev.gram.testing.ToolResult;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * E_TIMEOUT: a call past the server's deadline ({@code --read-deadline-ms}) answers E_TIMEOUT
 * whether it is waiting for the I/O pool or working, and the server keeps serving.
 */
class DeadlineTest extends ReadingTest {
  @Override
  String[] serverOptions() {
    return new String[] {"--read-deadline-ms", "300"};
  }

  @BeforeAll
  void fixture() {
    store.create("slow/a.gram", "A", "# A\n\ntext");
    store.patch("slow/a.gram", ops(set("doc", "d", "more")));
  }

  static final String MESSAGE = " did not finish within the server's 300 ms deadline; ask for less (one document, a narrower folder, a smaller limit or depth)";

  @Test
  void aCallPastTheDeadlineIsETimeout() {
    try (IoGate gate = IoGate.close(server.services().vault())) {
      // Every one of these needs the I/O pool, which is held: none can finish in time.
      long start = System.nanoTime();
      ToolResult brief = call("gram_brief", "{'folder':'slow'}");
      assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(250).isLessThan(10_000);
      assertError(brief, "E_TIMEOUT", "gram_brief" + MESSAGE);
      assertThat(brief.details().getInteger("deadline_ms")).isEqualTo(300);
      assertError(call("gram_changes", "{'folder':'slow'}"), "E_TIMEOUT", "gram_changes" + MESSAGE);
      assertError(call("gram_get", "{'path':'slow/a.gram','entity':'doc','revision':0}"), "E_TIMEOUT", "gram_get" + MESSAGE);
      assertError(call("gram_state", "{'path':'slow/a.gram','selector':{'revision':0}}"), "E_TIMEOUT", "gram_state" + MESSAGE);
      assertError(call("gram_list", "{'select':{'type':'task'}}"), "E_TIMEOUT", "gram_list" + MESSAGE);
      assertError(call("gram_relations", "{'from':{'path':'slow/a.gram','entity':'doc'}}"), "E_TIMEOUT", "gram_relations" + MESSAGE);
    }
    // Once the pool is free again the same calls answer.
    assertThat(ok("gram_brief", "{'folder':'slow'}").getJsonArray("docs")).hasSize(1);
    assertThat(ok("gram_get", "{'path':'slow/a.gram','entity':'doc','revision':0}").getJsonObject("at").getInteger("rev")).isZero();
  }

  /**
   * gram_recall waits for the index to take in every write acknowledged before it, then searches
   * on the index's pool. Held at that seam (the real index behind a gate), it answers E_TIMEOUT at
   * the server's deadline like every other reading tool, and answers once the index moves again.
   */
  @Test
  void aRecallPastTheDeadlineIsETimeout() throws Exception {
    GramContext real = server.services().context();
    Promise<Void> gate = Promise.promise();
    Recall held = request -> gate.future().compose(v -> real.recall().recall(request));
    GramRecall recall = new GramRecall(new GramContext(
        real.vertx(), real.reader(), real.writer(), real.index(), held, real.settings(), real.clock()));
    JsonObject args = json("{'query':'more'}");

    long start = System.nanoTime();
    Throwable failed = catchFailure(call(recall, args));
    assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(250).isLessThan(10_000);
    assertThat(failed).isInstanceOfSatisfying(GramException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.E_TIMEOUT);
      assertThat(e.getMessage()).isEqualTo("gram_recall" + MESSAGE);
      assertThat(e.details().getInteger("deadline_ms")).isEqualTo(300);
    });

    gate.complete();
    JsonObject answer = call(recall, args).get(10, TimeUnit.SECONDS);
    assertThat(answer.getJsonArray("hits")).isNotEmpty();
    // The server's own gram_recall, on the same index, answers too.
    assertThat(ok("gram_recall", "{'query':'more'}").getJsonArray("hits")).isNotEmpty();
  }

  /** Calls a tool on the server's event loop, as the protocol layer does. */
  private CompletableFuture<JsonObject> call(GramRecall tool, JsonObject args) {
    CompletableFuture<JsonObject> out = new CompletableFuture<>();
    server.services().context().vertx().getOrCreateContext().runOnContext(v ->
        tool.call(args.copy(), CallContext.of("test-agent")).onComplete(ar -> {
          if (ar.succeeded()) {
            out.complete(ar.result());
          } else {
            out.completeExceptionally(ar.cause());
          }
        }));
    return out;
  }

  private static Throwable catchFailure(CompletableFuture<JsonObject> answer) throws Exception {
    try {
      JsonObject a = answer.get(10, TimeUnit.SECONDS);
      throw new AssertionError("expected E_TIMEOUT, got " + a.encode());
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void readsOfTheCurrentStateNeedNoWorkerAndAnswerAtOnce() {
    try (IoGate gate = IoGate.close(server.services().vault())) {
      assertThat(ok("gram_get", "{'path':'slow/a.gram','entity':'doc'}").getJsonObject("entity").getString("type")).isEqualTo("document");
      assertThat(ok("gram_read", "{'path':'slow/a.gram','section':'A'}").getString("md")).isEqualTo("# A\n\ntext");
    }
  }
}
