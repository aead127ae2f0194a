package dev.gram.protocol;

import dev.gram.access.Identity;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code tools/call}: finds the tool, checks the arguments, runs the tool with a {@link
 * CallInFlight} as its context, and shapes what it gives with {@link ToolResults}. Every call that
 * reaches its tool is timed and counted in {@link ProtocolMetrics}, and counted in {@link
 * RunningTools} until the tool finishes.
 *
 * <p>Faults in the request itself (no tool name, an unknown tool, arguments that are not an
 * object, an id already in flight) are JSON-RPC errors; everything about the arguments' content,
 * and everything the tool raises, is a tool result with {@code isError}.
 */
final class ToolsCall {
  private static final Logger LOG = LoggerFactory.getLogger(ToolsCall.class);

  private final ToolRegistry registry;
  private final ArgumentValidator validator;
  private final ToolResults results;
  private final ProtocolMetrics metrics;
  private final RunningTools running;
  private final Refusals refusals;

  ToolsCall(
      ToolRegistry registry, ToolResults results, ProtocolMetrics metrics, RunningTools running) {
    this.registry = registry;
    this.validator = new ArgumentValidator(registry.tools());
    this.results = results;
    this.metrics = metrics;
    this.running = running;
    this.refusals = new Refusals(metrics);
  }

  /**
   * @param stream where the call's progress notifications go
   * @param client the name the client declared (or its transport's): the author recorded for a
   *     caller that the transport could not name; an authenticated caller's own name wins
   */
  Future<Reply> call(
      JsonRpc.Request req, Channel channel, Consumer<JsonObject> stream, String client, Era era) {
    if (!(req.params().getValue("name") instanceof String name)) {
      return refuse(req, "Invalid params: name must be a string", null);
    }
    Tool tool = registry.get(name);
    if (tool == null) {
      return refuse(req, "Unknown tool: " + name, new JsonObject().put("name", name));
    }
    Object argsValue = req.params().getValue("arguments");
    if (argsValue != null && !(argsValue instanceof JsonObject)) {
      return refuse(req, "Invalid params: arguments must be an object", null);
    }
    JsonObject args = argsValue == null ? new JsonObject() : (JsonObject) argsValue;
    long start = System.nanoTime();
    try {
      // Some missing arguments have codes of their own (E_CAS_REQUIRED, E_REQUEST_ID) that must
      // win over the schema's generic E_ARGUMENT.
      tool.precheck(args);
      validator.check(name, args);
    } catch (GramException e) {
      metrics.toolCall(
          name, channel.transport(), System.nanoTime() - start, e.code().name(), false);
      return Future.succeededFuture(Reply.result(req.id(), results.error(e, era)));
    }
    Identity caller = channel.caller();
    String agent = caller.named() ? caller.name() : client;
    CallInFlight call =
        new CallInFlight(req.id(), agent, caller, progressToken(req), stream, channel);
    if (!channel.register(req.id(), call)) {
      return Future.succeededFuture(
          Reply.error(
              req.id(),
              JsonRpc.INVALID_REQUEST,
              "Invalid Request: id already in flight",
              Reply.ErrorKind.INVALID_MESSAGE));
    }
    running.started(call.background());
    run(registry.get(name, caller), args, call)
        .onComplete(done -> finish(req, name, era, channel, call, start, done));
    return call.reply();
  }

  private static Future<Reply> refuse(JsonRpc.Request req, String message, Object data) {
    return Future.succeededFuture(
        Reply.error(req.id(), JsonRpc.INVALID_PARAMS, message, data, Reply.ErrorKind.METHOD_ERROR));
  }

  /** The client's progress token, when it is one JSON-RPC allows (a string or a number). */
  private static Object progressToken(JsonRpc.Request req) {
    if (req.params().getValue("_meta") instanceof JsonObject meta) {
      Object t = meta.getValue("progressToken");
      if (t instanceof String || t instanceof Number) {
        return t;
      }
    }
    return null;
  }

  /** The tool's answer; a tool that throws or returns no future fails it instead. */
  private static Future<JsonObject> run(Tool tool, JsonObject args, CallInFlight call) {
    try {
      Future<JsonObject> answer = tool.call(args.copy(), call);
      return answer != null
          ? answer
          : Future.failedFuture(new IllegalStateException(tool.name() + " returned no future"));
    } catch (Throwable e) {
      return Future.failedFuture(e);
    }
  }

  private void finish(
      JsonRpc.Request req,
      String name,
      Era era,
      Channel channel,
      CallInFlight call,
      long start,
      AsyncResult<JsonObject> done) {
    try {
      channel.unregister(req.id(), call);
      call.toolFinished();
      ToolResults.Shaped result;
      String code = null;
      if (done.succeeded()) {
        result = results.answer(name, done.result(), era);
        if (result.isError()) {
          code = ErrorCode.E_CONTEXT_BUDGET.name();
        }
      } else {
        refusals.note(name, call.caller(), done.cause());
        GramException e = ToolResults.toolError(name, done.cause());
        code = e.code().name();
        result = new ToolResults.Shaped(results.error(e, era), null);
      }
      metrics.toolCall(
          name, channel.transport(), System.nanoTime() - start, code, call.cancelled());
      call.answer(result.reply(req.id()));
    } catch (RuntimeException e) {
      // Shaping the answer failed (a result that cannot be encoded, say): the caller still gets
      // an answer, never silence.
      LOG.error("{} answer failed", name, e);
      call.answer(
          Reply.error(
              req.id(), JsonRpc.INTERNAL_ERROR, "Internal error", Reply.ErrorKind.INTERNAL));
    } finally {
      // Counted down only after the answer was handed to the transport, so a drain that sees
      // zero knows every answer is already queued for writing.
      running.finished(call.background());
    }
  }
}
