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
 * gram_recall}. The one place the view calls a tool: as the person's identity, through the same
 * gate an agent with that credential passes.
 */
final class ToolCalls {
  private final ToolRegistry tools;

  ToolCalls(ToolRegistry tools) {
    this.tools = tools;
  }

  /** Calls {@code name}; a tool's error fails the future with its {@code GramException}. */
  Future<JsonObject> call(String name, JsonObject arguments, Visitor visitor) {
    // The tool as the person may use it: for restricted approvals, built on the gated store.
    Tool tool = tools.get(name, visitor.identity());
    if (tool == null) {
      return Future.failedFuture(new IllegalStateException("no tool " + name));
    }
    try {
      tool.precheck(arguments);
      return tool.call(arguments, new CallContext() {
        @Override
        public String agent() {
          return visitor.name();
        }

        @Override
        public dev.gram.access.Identity caller() {
          return visitor.identity();
        }

        @Override
        public boolean cancelled() {
          return false;
        }

        @Override
        public void progress(double progress, Double total, String message) {}
      });
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
