package dev.gram.tools.support;

import dev.gram.tools.spi.CallContext;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The time one reading call may take. A call answers {@code E_TIMEOUT} once its deadline has
 * passed, whether it was waiting (for a document to load, for the vault scan, for the index to
 * take in a write) or working: {@link #guard} fails the answer when the timer fires, and {@link
 * #check}, called between units of work on a worker, stops the work itself so a late call does not
 * keep a thread busy. A call the client cancelled stops at the next check as well.
 */
public final class Deadline {
  private final String tool;
  private final long budgetMillis;
  private final long endNanos;
  private final CallContext call;

  private Deadline(String tool, Duration budget, CallContext call) {
    this.tool = tool;
    this.budgetMillis = Math.max(1, budget.toMillis());
    this.endNanos = System.nanoTime() + budget.toNanos();
    this.call = call;
  }

  public static Deadline start(String tool, Duration budget, CallContext call) {
    return new Deadline(tool, budget, call);
  }

  /** A deadline that never passes, for work done outside a call. */
  public static Deadline none() {
    return new Deadline("read", Duration.ofDays(365), null);
  }

  /** True when the call is the server's own ({@link CallContext#background}). */
  public boolean background() {
    return call != null && call.background();
  }

  /** Milliseconds until the deadline, 0 once it has passed. */
  public long leftMillis() {
    return Math.max(0, (endNanos - System.nanoTime()) / 1_000_000);
  }

  public boolean passed() {
    return System.nanoTime() - endNanos > 0;
  }

  /** True once {@link #check} would throw: the deadline has passed or the client cancelled. */
  public boolean stopped() {
    return (call != null && call.cancelled()) || passed();
  }

  /** Throws E_TIMEOUT once the deadline has passed, or E_INTERNAL when the client cancelled. */
  public void check() {
    if (call != null && call.cancelled()) {
      throw new GramException(ErrorCode.E_INTERNAL, tool + " was cancelled by the client");
    }
    if (passed()) {
      throw timeout();
    }
  }

  public GramException timeout() {
    return new GramException(
        ErrorCode.E_TIMEOUT,
        tool + " did not finish within the server's " + budgetMillis
            + " ms deadline; ask for less (one document, a narrower folder, a smaller limit or depth)",
        new JsonObject().put("deadline_ms", budgetMillis));
  }

  /** The work's outcome, or E_TIMEOUT if the deadline passes first. */
  public <T> Future<T> guard(Vertx vertx, Future<T> work) {
    if (work.isComplete()) {
      return passed() && work.succeeded() ? Future.failedFuture(timeout()) : work;
    }
    long left = Math.max(1, (endNanos - System.nanoTime()) / 1_000_000);
    Promise<T> out = Promise.promise();
    long timer = vertx.setTimer(left, id -> out.tryFail(timeout()));
    work.onComplete(
        ar -> {
          vertx.cancelTimer(timer);
          if (ar.succeeded()) {
            out.tryComplete(ar.result());
          } else {
            out.tryFail(ar.cause());
          }
        });
    return out.future();
  }
}
