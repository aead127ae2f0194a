package dev.gram.tools;

import dev.gram.base.GramException;
import dev.gram.server.ServerConfig;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.support.Budget;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * What the nine reading tools share: the contract's input schema, read-only, and one way to run a
 * call — arguments arrive validated against that schema by the protocol layer, failures are
 * returned as failed futures (never thrown on the event loop),
 * the per-call deadline enforced, and the answer checked against the byte budget.
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
    Deadline deadline = Deadline.start(name, readDeadline(), call);
    Future<JsonObject> answer;
    try {
      answer = read(args, deadline);
    } catch (GramException e) {
      answer = Future.failedFuture(e);
    }
    return deadline
        .guard(ctx.vertx(), answer)
        .compose(
            a ->
                Budget.fits(a)
                    ? Future.succeededFuture(a)
                    : Future.failedFuture(Budget.tooLarge(name + "'s answer")));
  }

  private Duration readDeadline() {
    ServerConfig config = ctx.config();
    return config == null || config.readDeadline() == null
        ? ServerConfig.DEFAULT_READ_DEADLINE
        : config.readDeadline();
  }

  /**
   * Answers one call. Runs on an event loop: anything whose cost grows with the vault or a
   * document's history goes to {@code ctx.vault().io()}, calling {@link Deadline#check} as it goes.
   */
  abstract Future<JsonObject> read(JsonObject args, Deadline deadline);
}
