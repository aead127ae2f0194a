package dev.gram.protocol;

import dev.gram.async.Foreground;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts tool calls whose tools have not finished, cancelled ones included (a cancelled write may
 * still land), so shutdown can wait for them, and reports them to the {@link Foreground} that
 * background work gives way to. A call counts until its answer has been handed to the
 * transport, so when the count reaches zero every answer is already queued for writing.
 *
 * <p>Waiting is driven by completion, not by polling: the call that brings the count to zero
 * completes every waiting drain at once.
 */
final class RunningTools {
  private static final Logger LOG = LoggerFactory.getLogger(RunningTools.class);

  private final Vertx vertx;
  private final Foreground foreground;
  // Guarded by this: the count and the waiters change together, so no drain can miss a zero.
  private int running;
  private final List<Runnable> waiters = new ArrayList<>();

  RunningTools(Vertx vertx, Foreground foreground) {
    this.vertx = vertx;
    this.foreground = foreground;
  }

  /** @param background the server's own call: counted, not reported to the foreground */
  void started(boolean background) {
    if (!background) {
      foreground.started();
    }
    synchronized (this) {
      running++;
    }
  }

  void finished(boolean background) {
    if (!background) {
      foreground.ended();
    }
    List<Runnable> idle;
    synchronized (this) {
      if (--running > 0 || waiters.isEmpty()) {
        return;
      }
      idle = List.copyOf(waiters);
      waiters.clear();
    }
    idle.forEach(Runnable::run);
  }

  synchronized int count() {
    return running;
  }

  /**
   * Completes once no tool call is running, or after {@code timeout}, whichever comes first. It
   * completes on the caller's Vert.x context (or on an event loop when called from elsewhere), not
   * on the thread of whichever tool finished last.
   */
  Future<Void> drain(Duration timeout) {
    Promise<Void> done = Promise.promise();
    Context context = vertx.getOrCreateContext();
    Runnable whenIdle = () -> context.runOnContext(v -> done.tryComplete());
    synchronized (this) {
      if (running == 0) {
        done.complete();
        return done.future();
      }
      waiters.add(whenIdle);
    }
    long timer =
        vertx.setTimer(
            Math.max(1, timeout.toMillis()),
            t -> {
              synchronized (this) {
                waiters.remove(whenIdle);
              }
              if (done.tryComplete()) {
                LOG.warn("{} tool calls still running at shutdown", count());
              }
            });
    done.future().onComplete(v -> vertx.cancelTimer(timer));
    return done.future();
  }
}
