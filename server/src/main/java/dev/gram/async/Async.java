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

  private static void complete(Context ctx, Runnable r) {
    if (ctx == null) {
      r.run();
    } else {
      ctx.runOnContext(v -> r.run());
    }
  }
}
