package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the stdio transport hands the pipe: each answer whole, its newline with it, in one write.
 * A client that reads the pipe then finds a whole line in what one read returns, instead of a line
 * without its end and a newline after it.
 */
class LineWriterTest {
  /** The pipe as the writer sees it: every write call, as the bytes it was given. */
  private static final class Writes extends OutputStream {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public void write(int b) {
      calls.add(String.valueOf((char) b));
    }

    @Override
    public void write(byte[] b, int off, int len) {
      calls.add(new String(b, off, len, StandardCharsets.UTF_8));
    }
  }

  @Test
  void anAnswerAndItsNewlineLeaveInOneWrite() throws Exception {
    Writes pipe = new Writes();
    LineWriter writer = new LineWriter(pipe);
    writer.send(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("result", new JsonObject()));
    writer.flush().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(pipe.calls).containsExactly("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    writer.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void answersQueuedTogetherAreWrittenInOrderAndWhole() throws Exception {
    Writes pipe = new Writes();
    LineWriter writer = new LineWriter(pipe);
    for (int i = 0; i < 100; i++) {
      writer.sendLine("{\"id\":" + i + "}");
    }
    writer.flush().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    String written = String.join("", pipe.calls);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      expected.append("{\"id\":").append(i).append("}\n");
    }
    assertThat(written).isEqualTo(expected.toString());
    // Never a line cut from its newline: every write ends a line (these all fit one buffer).
    assertThat(pipe.calls).allSatisfy(call -> assertThat(call).endsWith("\n"));
    writer.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
