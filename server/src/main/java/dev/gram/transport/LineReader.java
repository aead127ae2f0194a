package dev.gram.transport;

import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads newline-delimited messages from a blocking stream on its own thread (reading stdin can
 * only block) and hands each complete line to {@code onLine}; the consumer moves it onto an event
 * loop. A line longer than the limit is skipped and reported as {@code null}, so one oversized
 * message cannot exhaust memory or desynchronise the framing.
 */
final class LineReader implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(LineReader.class);

  private final InputStream in;
  private final long maxLineBytes;
  private final Consumer<Buffer> onLine;
  private final Runnable onEof;

  LineReader(InputStream in, long maxLineBytes, Consumer<Buffer> onLine, Runnable onEof) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
    this.onLine = onLine;
    this.onEof = onEof;
  }

  @Override
  public void run() {
    byte[] chunk = new byte[64 * 1024];
    Buffer line = Buffer.buffer();
    boolean skipping = false;
    try {
      int n;
      while ((n = in.read(chunk)) >= 0) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] != '\n') {
            continue;
          }
          if (!skipping) {
            line.appendBytes(chunk, start, i - start);
            emit(line);
          }
          skipping = false;
          line = Buffer.buffer();
          start = i + 1;
        }
        if (!skipping && start < n) {
          line.appendBytes(chunk, start, n - start);
          if (line.length() > maxLineBytes) {
            skipping = true;
            line = Buffer.buffer();
            onLine.accept(null);
          }
        }
      }
      if (!skipping && line.length() > 0) {
        emit(line);
      }
    } catch (IOException e) {
      LOG.warn("stdin failed: {}", e.getMessage());
    }
    onEof.run();
  }

  private void emit(Buffer line) {
    int len = line.length();
    if (len > 0 && line.getByte(len - 1) == '\r') {
      line = line.getBuffer(0, len - 1);
    }
    if (line.length() > maxLineBytes) {
      onLine.accept(null);
      return;
    }
    for (int i = 0; i < line.length(); i++) {
      byte b = line.getByte(i);
      if (b != ' ' && b != '\t') {
        onLine.accept(line);
        return;
      }
    }
    // Blank lines carry no message.
  }
}
