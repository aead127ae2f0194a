package dev.gram.tools.spi;

import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One MCP tool. The protocol layer validates arguments against {@link #inputSchema()} before
 * {@link #call} runs, so a tool sees only arguments of the right shape; it still checks the
 * meaning of values (paths, dates, cursors) and fails with a {@link GramException}.
 *
 * <p>{@link #call} is invoked on an event-loop thread and must not block: work that touches files
 * or Lucene runs elsewhere and completes the returned future.
 */
public interface Tool {

  /** The tool's name, e.g. {@code gram_patch}. */
  String name();

  /** What this server's tool does, in our own words. */
  String description();

  /** The input JSON Schema, equal to the contract's. */
  JsonObject inputSchema();

  /** True for tools that never change a document. */
  boolean readOnly();

  /** True when repeating the same call has no further effect. */
  default boolean idempotent() {
    return readOnly();
  }

  /**
   * Checks that must answer with their own error code before the schema's generic {@code
   * E_ARGUMENT}: a patch without {@code base_revision} is {@code E_CAS_REQUIRED}, one without a
   * {@code request_id} is {@code E_REQUEST_ID}. Throws {@link GramException}; the default checks
   * nothing.
   */
  default void precheck(JsonObject arguments) {}

  /** Runs the tool; the result is the {@code structuredContent} object. */
  Future<JsonObject> call(JsonObject arguments, CallContext context);
}
