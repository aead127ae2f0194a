package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void onATerminalOneLineIsRewrittenWithCountRateAndTimeLeft() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicInteger left = new AtomicInteger(100);
    Progress p = new Progress(true, new PrintStream(bytes, true, StandardCharsets.UTF_8), left::get);
    for (int i = 0; i < 50; i++) {
      p.step();
      left.decrementAndGet();
    }
    p.tick();
    assertThat(bytes.size()).as("nothing before a second has passed").isZero();
    Thread.sleep(Progress.SHOW_AFTER_MS + 50);
    p.tick();
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out).startsWith("\r").contains("indexing 50/100 documents").contains("/s").contains("s left").doesNotContain("\n");
    left.set(0);
    p.tick();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("indexed 50 documents in").endsWith("\n");
  }

  @Test
  void elsewhereNothingIsWrittenToTheStream() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicInteger left = new AtomicInteger(10);
    Progress p = new Progress(false, new PrintStream(bytes, true, StandardCharsets.UTF_8), left::get);
    p.step();
    Thread.sleep(Progress.SHOW_AFTER_MS + 50);
    p.tick();
    left.set(0);
    p.tick();
    // Log lines go through SLF4J instead.
    assertThat(bytes.size()).isZero();
  }

  @Test
  void theEmbeddingPassHasALineOfItsOwn() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicInteger left = new AtomicInteger(30);
    Progress p = new Progress(true, new PrintStream(bytes, true, StandardCharsets.UTF_8), left::get,
        "embedding", "embedded vectors of");
    for (int i = 0; i < 10; i++) {
      p.step();
      left.decrementAndGet();
    }
    Thread.sleep(Progress.SHOW_AFTER_MS + 50);
    p.tick();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("embedding 10/30 documents");
    left.set(0);
    p.tick();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("embedded vectors of 10 documents in");
  }
}
