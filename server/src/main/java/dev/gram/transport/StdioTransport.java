package dev.gram.transport;

import dev.gram.protocol.Channel;
import dev.gram.protocol.JsonRpc;
import dev.gram.protocol.McpDispatcher;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Semaphore;

/**
 * MCP over stdin/stdout: one newline-delimited JSON-RPC message per line. A daemon thread reads
 * stdin and hands lines to this verticle's event loop; a {@link LineWriter} thread writes answers
 * in order. Nothing but protocol messages reaches {@code out}.
 *
 * <p>When stdin ends, {@code onEof} runs once (the server then finishes in-flight work and exits,
 * since the agent runtime that started us owns our life).
 */
public final class StdioTransport extends VerticleBase implements Transport {
  /** Lines read but not yet answered; past this the reader waits, which pushes back on the client. */
  private static final int MAX_PENDING = 1024;

  private final McpDispatcher dispatcher;
  private final InputStream in;
  private final OutputStream out;
  private final long maxLineBytes;
  private final Runnable onEof;
  private final Semaphore pending = new Semaphore(MAX_PENDING);
  private final dev.gram.access.Identity caller;
  private volatile boolean accepting = true;
  private LineWriter writer;
  private Channel channel;

  public StdioTransport(
      McpDispatcher dispatcher, InputStream in, OutputStream out, long maxLineBytes, Runnable onEof) {
    this(dispatcher, in, out, maxLineBytes, onEof, dev.gram.access.Identity.local());
  }

  /**
   * @param caller who the process on the other end is: the local caller, with every approval
   *     unless {@code --approve} narrowed it (stdio authenticates nobody: its parent owns it)
   */
  public StdioTransport(
      McpDispatcher dispatcher,
      InputStream in,
      OutputStream out,
      long maxLineBytes,
      Runnable onEof,
      dev.gram.access.Identity caller) {
    this.caller = caller;
    this.dispatcher = dispatcher;
    this.in = in;
    this.out = out;
    this.maxLineBytes = maxLineBytes;
    this.onEof = onEof;
  }

  @Override
  public Future<?> start() {
    writer = new LineWriter(out);
    channel = new Channel("stdio", "stdio", writer);
    channel.caller(caller);
    Thread reader =
        new Thread(new LineReader(in, maxLineBytes, this::fromReader, this::eof), "gram-stdin");
    reader.setDaemon(true);
    reader.start();
    return Future.succeededFuture();
  }

  private void fromReader(Buffer line) {
    pending.acquireUninterruptibly();
    context.runOnContext(v -> handle(line));
  }

  private void eof() {
    // Calls in flight are not cancelled: the client closed its side, but the writes it asked for
    // finish, and their answers are still written in case it reads on until we exit.
    context.runOnContext(
        v -> {
          if (accepting) {
            onEof.run();
          }
        });
  }

  private void handle(Buffer line) {
    if (!accepting) {
      pending.release();
      return;
    }
    if (line == null) {
      pending.release();
      writer.send(
          JsonRpc.error(
              null,
              JsonRpc.INVALID_REQUEST,
              "Invalid Request: message longer than " + maxLineBytes + " bytes"));
      return;
    }
    dispatcher
        .handle(JsonRpc.parse(line), channel)
        .onComplete(
            ar -> {
              pending.release();
              if (ar.succeeded() && !ar.result().isNone()) {
                writer.sendLine(ar.result().encoded());
              }
            });
  }

  @Override
  public Future<Void> quiesce() {
    accepting = false;
    return Future.succeededFuture();
  }

  /** Completes once every answer queued so far has reached stdout. */
  public Future<Void> flush() {
    return writer == null ? Future.succeededFuture() : writer.flush();
  }

  @Override
  public Future<?> stop() {
    return writer.close();
  }
}
