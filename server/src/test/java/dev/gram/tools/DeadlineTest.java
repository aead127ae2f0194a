package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.IoGate;
import dev.gram.testing.ToolResult;
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

  @Test
  void readsOfTheCurrentStateNeedNoWorkerAndAnswerAtOnce() {
    try (IoGate gate = IoGate.close(server.services().vault())) {
      assertThat(ok("gram_get", "{'path':'slow/a.gram','entity':'doc'}").getJsonObject("entity").getString("type")).isEqualTo("document");
      assertThat(ok("gram_read", "{'path':'slow/a.gram','section':'A'}").getString("md")).isEqualTo("# A\n\ntext");
    }
  }
}
