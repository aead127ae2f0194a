package dev.gram.transport;

import dev.gram.base.CompactJson;
import dev.gram.protocol.Outbound;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only writer of the stdio transport's output: one thread takes messages from a queue and
 * writes each as one line, in the order they were queued. Writing to a pipe blocks when the
 * reader is slow, so it never happens on an event loop; callers only enqueue.
 */
final class LineWriter implements Outbound {
  /** Lines queued past which a subscription holds back and coalesces instead. */
  private static final int CONGESTED_LINES = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(LineWriter.class);
  private static final byte[] NEWLINE = {'\n'};

  private sealed interface Item permits Line, Flush, Close {}

  private record Line(byte[] bytes) implements Item {}

  private record Flush(Promise<Void> done) implements Item {}

  private record Close(Promise<Void> done) implements Item {}

  private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
  private final OutputStream out;
  private final Thread thread;
  private volatile boolean broken;

  LineWriter(OutputStream out) {
    // Buffered, so that a line and its newline, and the lines of a batch, leave in one write (one
    // per 64 KiB): unbuffered, each line took two writes to the pipe, the JSON and its newline.
    this.out = new BufferedOutputStream(out, 1 << 16);
    this.thread = new Thread(this::run, "gram-stdout");
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues one message; it is written after everything queued before it. */
  void send(JsonObject message) {
    // Compact JSON never holds a raw newline: newlines inside strings are escaped.
    sendLine(CompactJson.encode(message));
  }

  /** Queues one message already JSON text (compact, so without a raw newline). */
  void sendLine(String json) {
    if (!broken) {
      queue.add(new Line(json.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Override
  public void accept(JsonObject message) {
    send(message);
  }

  /** Messages already JSON text (no raw newline in them), queued in order. */
  @Override
  public void sendEncoded(List<String> messages) {
    if (!broken) {
      for (String m : messages) {
        queue.add(new Line(m.getBytes(StandardCharsets.UTF_8)));
      }
    }
  }

  /** The client reads stdout slower than we write: the queue is long. */
  @Override
  public boolean congested() {
    return queue.size() > CONGESTED_LINES;
  }

  /** Completes once everything queued so far is written and flushed. */
  Future<Void> flush() {
    Promise<Void> p = Promise.promise();
    queue.add(new Flush(p));
    return p.future();
  }

  /** Flushes, then stops the writer thread. */
  Future<Void> close() {
    Promise<Void> p = Promise.promise();
    queue.add(new Close(p));
    return p.future();
  }

  int queued() {
    return queue.size();
  }

  private void run() {
    List<Item> batch = new ArrayList<>();
    while (true) {
      try {
        batch.add(queue.take());
        queue.drainTo(batch, 256);
        boolean close = false;
        for (Item item : batch) {
          if (item instanceof Line line) {
            write(line.bytes());
          } else if (item instanceof Flush f) {
            flushQuietly();
            f.done().tryComplete();
          } else if (item instanceof Close c) {
            flushQuietly();
            c.done().tryComplete();
            close = true;
          }
        }
        batch.clear();
        // One flush per batch keeps many small answers cheap without holding any back.
        flushQuietly();
        if (close) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void write(byte[] bytes) {
    if (broken) {
      return;
    }
    try {
      out.write(bytes);
      out.write(NEWLINE);
    } catch (IOException e) {
      // The client closed our stdout: nobody can read answers any more.
      broken = true;
      LOG.warn("stdout closed: {}", e.getMessage());
    }
  }

  private void flushQuietly() {
    if (broken) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      broken = true;
      LOG.warn("stdout closed: {}", e.getMessage());
    }
  }
}
