package dev.gram.tools;

import dev.gram.base.DateSpan;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.Times;
import dev.gram.store.CommitReceipt;
import dev.gram.tools.support.Docs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The answer of a write: {@code {created, doc, receipt}} and diagnostics when there are any. */
final class WriteAnswers {
  private WriteAnswers() {}

  static JsonObject of(CommitReceipt r) {
    JsonObject receipt = new JsonObject();
    if (r.requestId() != null) {
      receipt.put("request_id", r.requestId());
    }
    receipt.put("revision", r.rev()).put("status", "success");
    JsonObject answer =
        new JsonObject()
            .put("created", new JsonArray(r.created()))
            .put("doc", Docs.identity(r.path(), r.rev(), r.hash()))
            .put("receipt", receipt);
    if (r.diagnostics() != null && !r.diagnostics().isEmpty()) {
      answer.put("diagnostics", r.diagnostics());
    }
    return answer;
  }

  /** Checks an {@code effective_at}: any ISO date or time. */
  static String effectiveAt(JsonObject args) {
    String eff = args.getString("effective_at");
    if (eff != null && dev.gram.base.DateSpan.parse(eff) == null) {
      throw new GramException(
          ErrorCode.E_ARGUMENT, "effective_at is not an ISO date or time: " + eff + " (e.g. " + Times.format(java.time.Instant.EPOCH) + ")");
    }
    return eff;
  }
}
