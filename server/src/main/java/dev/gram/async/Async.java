package dev.gram.async;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one bridge between Vert.x {@link Future}s, Mutiny {@link Uni}s and work that must run off
 * the event loop. Results computed on a worker are handed back on the caller's Vert.x context, so
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

  /** A lazy {@link Uni} of a Vert.x future (subscribing does not start the future twice). */
  public static <T> Uni<T> toUni(Future<T> future) {
    return Uni.createFrom()
        .emitter(
            em ->
                future.onComplete(
                    ar -> {
                      if (ar.succeeded()) {
                        em.complete(ar.result());
                      } else {
                        em.fail(ar.cause());
                      }
                    }));
  }

  /** A Vert.x future of a {@link Uni}, subscribing to it once. */
  public static <T> Future<T> toFuture(Uni<T> uni) {
    Promise<T> promise = Promise.promise();
    uni.subscribe().with(promise::complete, promise::fail);
    return promise.future();
  }
}
