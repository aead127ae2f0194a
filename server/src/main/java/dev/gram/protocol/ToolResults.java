package dev.gram.protocol;

import dev.gram.base.CompactJson;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shapes what a tool gave into a {@code tools/call} result. An answer becomes {@code content} (one
 * text item of the answer's compact JSON) plus {@code structuredContent} (the answer itself), once
 * it is known to fit the {@link ResponseBudget}; an error becomes {@code isError: true} with the
 * {@link ToolErrors#errorObject} shape in both places. 2026-07-28 results also carry {@code
 * resultType} and name the server.
 */
final class ToolResults {
  private static final Logger LOG = LoggerFactory.getLogger(ToolResults.class);

  private final ServerInfo info;

  ToolResults(ServerInfo info) {
    this.info = info;
  }

  /**
   * A {@code tools/call} result, and the compact JSON of its {@code structuredContent} (with that
   * text as a JSON string) when it was encoded for the text content: the reply splices both in
   * rather than encoding the answer a second and a third time.
   */
  record Shaped(JsonObject result, CompactJson.Quoted answer) {
    private static final String CONTENT_OPEN = "[{\"type\":\"text\",\"text\":";

    boolean isError() {
      return Boolean.TRUE.equals(result.getBoolean("isError"));
    }

    /** The answer's compact JSON, or null for an error. */
    String answerText() {
      return answer == null ? null : answer.text();
    }

    Reply reply(Object id) {
      JsonObject message = JsonRpc.result(id, result);
      if (answer == null) {
        return new Reply.Result(message);
      }
      // A builder, not a concatenation: the first calls after a start run this interpreted, and
      // a concatenation there goes through a chain of method handles.
      String quoted = answer.quoted();
      String content = new StringBuilder(CONTENT_OPEN.length() + quoted.length() + 2)
          .append(CONTENT_OPEN).append(quoted).append("}]").toString();
      return new Reply.Result(
          message,
          JsonRpc.encodeResult(id, result, Map.of("content", content, "structuredContent", answer.text())));
    }
  }

  /**
   * The result for a tool's answer. An answer over the budget becomes {@code E_CONTEXT_BUDGET}
   * here, whatever the tool meant to page: no client ever receives more than the contract allows.
   *
   * @throws RuntimeException when the answer cannot be encoded as JSON
   */
  Shaped answer(String tool, JsonObject answer, Era era) {
    if (answer == null) {
      LOG.error("{} answered null", tool);
      return new Shaped(error(new GramException(ErrorCode.E_INTERNAL, tool + " gave no answer"), era), null);
    }
    // Encoded once: the budget is measured on the very text the client receives.
    CompactJson.Quoted encoded = CompactJson.encodeQuoted(answer);
    String text = encoded.text();
    int size = encoded.utf8Bytes();
    if (size > ResponseBudget.BYTES) {
      LOG.warn("{} answer of {} bytes is over the budget", tool, size);
      return new Shaped(error(
          new GramException(
              ErrorCode.E_CONTEXT_BUDGET,
              "The answer is " + size + " bytes, over the " + ResponseBudget.BYTES
                  + "-byte response budget; ask for less",
              new JsonObject()
                  .put("budget_bytes", ResponseBudget.BYTES)
                  .put("size_bytes", size)),
          era), null);
    }
    JsonObject result =
        new JsonObject()
            .put("content", new JsonArray().add(textContent(text)))
            .put("structuredContent", answer);
    return new Shaped(finish(result, era), encoded);
  }

  /** The {@code isError} result for a tool error. */
  JsonObject error(GramException e, Era era) {
    JsonObject errorObject = ToolErrors.errorObject(e);
    JsonObject result =
        new JsonObject()
            .put("content", new JsonArray().add(textContent(CompactJson.encode(errorObject))))
            .put("structuredContent", errorObject)
            .put("isError", true);
    return finish(result, era);
  }

  /**
   * The tool error a failed call reports. A {@link GramException} keeps the code and message the
   * layer that raised it chose; anything else is a bug, shown to the client as {@code E_INTERNAL}
   * without its details, never a stack trace.
   */
  static GramException toolError(String tool, Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof GramException e) {
      return e;
    }
    LOG.error("{} failed", tool, t);
    return new GramException(
        ErrorCode.E_INTERNAL, "Internal error in " + tool + "; the server log has the cause");
  }

  private JsonObject finish(JsonObject result, Era era) {
    if (era == Era.MODERN) {
      result.put("resultType", "complete").put("_meta", info.resultMeta());
    }
    return result;
  }

  private static JsonObject textContent(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }
}
