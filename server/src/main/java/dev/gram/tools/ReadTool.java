package dev.gram.tools;

import dev.gram.async.Async;
import dev.gram.base.GramException;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.Callable;

/**
 * What every tool that only reads shares, so that each of the thirteen runs a call the same way:
 * the contract's input schema, read-only, arguments that arrive validated against that schema by
 * the protocol layer, failures returned as failed futures (never thrown on the event loop), the
 * per-call deadline ({@code --read-deadline-ms}) and the client's cancellation enforced through
 * one {@link Deadline}, work that grows with the vault run off the event loop through {@link
 * #offLoop}, and the answer checked against the byte budget.
 */
abstract class ReadTool implements Tool {
  protected final GramContext ctx;
  private final String name;
  private final JsonObject schema;

  ReadTool(GramContext ctx, String name) {
    this.ctx = ctx;
    this.name = name;
    this.schema = ToolSchemas.load(name);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final JsonObject inputSchema() {
    return schema.copy();
  }

  @Override
  public final boolean readOnly() {
    return true;
  }

  @Override
  public final Future<JsonObject> call(JsonObject arguments, CallContext call) {
    JsonObject args = arguments == null ? new JsonObject() : arguments;
    Deadline deadline = Deadline.start(name, ctx.settings().readDeadline(), call);
    Future<JsonObject> answer;
    try {
      answer = read(args, deadline);
    } catch (GramException e) {
      answer = Future.failedFuture(e);
    }
    return deadline.guard(ctx.vertx(), answer).compose(this::withinBudget);
  }

  /**
   * Answers one call. Runs on an event loop: anything whose cost grows with the vault or a
   * document's history goes through {@link #offLoop}, calling {@link Deadline#check} as it goes.
   */
  abstract Future<JsonObject> read(JsonObject args, Deadline deadline);

  /**
   * Runs {@code work} on the store's I/O pool, never on the event loop; the result comes back on
   * the caller's context. Work that starts after the deadline passed, or after the client
   * cancelled, does not start at all.
   */
  final <T> Future<T> offLoop(Deadline deadline, Callable<T> work) {
    return Async.run(
        ctx.reader().io(),
        () -> {
          deadline.check();
          return work.call();
        });
  }

  /**
   * The last check of an answer's size: one too large fails with {@code E_CONTEXT_BUDGET} naming
   * the tool. A tool whose answer has nothing to page or shorten leaves this to the protocol
   * layer's check, which reports the size.
   */
  Future<JsonObject> withinBudget(JsonObject answer) {
    return Budget.fits(answer)
        ? Future.succeededFuture(answer)
        : Future.failedFuture(Budget.tooLarge(name + "'s answer"));
  }
}
