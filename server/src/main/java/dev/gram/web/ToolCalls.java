package dev.gram.web;

import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.spi.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * How the web view calls the tools: the same {@link Tool} instances agents call, with the
 * person's name as the agent, so a person's edit is a {@code gram_patch} like any other (compare
 * and swap, idempotent by its request_id, attributed in the history) and a search is a {@code
 * gram_recall}. The one place the view calls a tool; a gate that every caller passes belongs here.
 */
final class ToolCalls {
  private final ToolRegistry tools;

  ToolCalls(ToolRegistry tools) {
    this.tools = tools;
  }

  /** Calls {@code name}; a tool's error fails the future with its {@code GramException}. */
  Future<JsonObject> call(String name, JsonObject arguments, Visitor visitor) {
    Tool tool = tools.get(name);
    if (tool == null) {
      return Future.failedFuture(new IllegalStateException("no tool " + name));
    }
    try {
      tool.precheck(arguments);
      return tool.call(arguments, CallContext.of(visitor.name()));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
