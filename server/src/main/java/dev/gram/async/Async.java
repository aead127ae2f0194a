package dev.gram.async;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one bridge between Vert.x {@link Future}s and work that must run off the event loop. Results computed on a worker are handed back on the caller's Vert.x context, so
 * callbacks composed on the returned future run where the caller expects them to.
 */
public final class Async {
  private Async() {}

  /** Runs {@code work} on {@code executor}; the future completes on the caller's context. */
  public static <T> Future<T> run(Executor executor, Callable<T> work) {
    Context ctx = Vertx.currentContext();
    Promise<T> promise = Promise.promise();
    try {
      executor.execute(
          () -> {
            T value;
            try {
              value = work.call();
            } catch (Throwable t) {
              complete(ctx, () -> promise.fail(t));
              return;
            }
            complete(ctx, () -> promise.complete(value));
          });
    } catch (RejectedExecutionException e) {
      promise.fail(e);
    }
    return promise.future();
  }

  /**
   * A future that completes as {@code f} does, but on the context of the caller of this method:
   * for a future that another thread may complete (a start-up scan on an I/O thread, another
   * node's answer), so that whatever the caller composes on it runs where the caller expects. Off
   * any context, {@code f} itself.
   */
  public static <T> Future<T> onCallerContext(Future<T> f) {
    Context ctx = Vertx.currentContext();
    if (ctx == null) {
      return f;
    }
    Promise<T> promise = Promise.promise();
    f.onComplete(ar -> {
      if (Vertx.currentContext() == ctx) {
        promise.handle(ar);
      } else {
        ctx.runOnContext(v -> promise.handle(ar));
      }
    });
    return promise.future();
  }

  private static void complete(Context ctx, Runnable r) {
    if (ctx == null) {
      r.run();
    } else {
      ctx.runOnContext(v -> r.run());
    }
  }
}
