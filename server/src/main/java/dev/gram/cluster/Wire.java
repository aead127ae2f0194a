package dev.gram.cluster;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.GramParser;
import dev.gram.format.HistoryCodec;
import dev.gram.format.Revision;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocumentReader;
import dev.gram.store.RequestReuseException;
import dev.gram.store.StaleRevisionException;
import dev.gram.store.WriteCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What nodes send each other on the event bus, as JSON: write commands, receipts, refusals and
 * revisions. A revision travels as the text a {@code .gram} file stores for it, so its chain hash
 * is checked by the node that receives it exactly as on a file's load.
 */
final class Wire {
  private Wire() {}

  static JsonObject command(WriteCommand c) {
    JsonObject j = new JsonObject().put("path", c.path().path()).put("by", c.by()).put("effectiveAt", c.effectiveAt());
    if (c instanceof WriteCommand.Create cr) {
      return j.put("kind", "create")
          .put("initial", dev.gram.format.GramWriter.write(cr.initial()))
          .put("created", new JsonArray(new ArrayList<>(cr.created())))
          .put("diagnostics", cr.diagnostics() == null ? null : cr.diagnostics().copy());
    }
    WriteCommand.Patch p = (WriteCommand.Patch) c;
    return j.put("kind", "patch")
        .put("baseRevision", p.baseRevision())
        .put("expectedHash", p.expectedHash())
        .put("requestId", p.requestId())
        .put("digest", p.digest())
        .put("operations", p.operations().copy());
  }

  static WriteCommand command(JsonObject j, DocumentReader reader) {
    var path = reader.paths().document(j.getString("path"));
    String by = j.getString("by");
    String effectiveAt = j.getString("effectiveAt");
    if ("create".equals(j.getString("kind"))) {
      var parsed = GramParser.parse(j.getString("initial"));
      if (!(parsed instanceof GramParser.Success ok)) {
        throw new GramException(ErrorCode.E_INTERNAL, "a create sent by another node does not parse: " + parsed);
      }
      List<String> created = new ArrayList<>();
      for (Object o : j.getJsonArray("created", new JsonArray())) {
        created.add((String) o);
      }
      return new WriteCommand.Create(path, ok.file().state(), by, effectiveAt, created, j.getJsonArray("diagnostics"));
    }
    return new WriteCommand.Patch(
        path,
        j.getInteger("baseRevision"),
        j.getString("expectedHash"),
        j.getString("requestId"),
        j.getString("digest"),
        j.getJsonArray("operations"),
        by,
        effectiveAt);
  }

  static JsonObject receipt(CommitReceipt r) {
    return new JsonObject()
        .put("path", r.path())
        .put("rev", r.rev())
        .put("hash", r.hash())
        .put("created", new JsonArray(new ArrayList<>(r.created())))
        .put("requestId", r.requestId())
        .put("diagnostics", r.diagnostics() == null ? null : r.diagnostics().copy())
        .put("replayed", r.replayed());
  }

  static CommitReceipt receipt(JsonObject j) {
    List<String> created = new ArrayList<>();
    for (Object o : j.getJsonArray("created", new JsonArray())) {
      created.add((String) o);
    }
    return new CommitReceipt(
        j.getString("path"),
        j.getInteger("rev"),
        j.getString("hash"),
        created,
        j.getString("requestId"),
        j.getJsonArray("diagnostics"),
        j.getBoolean("replayed", false));
  }

  /** A refusal, with the facts its typed exception carries. */
  static JsonObject failure(Throwable e) {
    if (!(e instanceof GramException g)) {
      return new JsonObject().put("code", ErrorCode.E_INTERNAL.name()).put("message", String.valueOf(e.getMessage()));
    }
    JsonObject j = new JsonObject().put("code", g.code().name()).put("message", g.getMessage()).put("details", g.details());
    if (g instanceof StaleRevisionException s) {
      j.put("kind", "stale").put("base", s.baseRevision());
    } else if (g instanceof RequestReuseException r) {
      j.put("kind", "reuse").put("usedPath", r.usedPath()).put("usedRevision", r.usedRevision());
    }
    return j;
  }

  /**
   * The refusal as the owner raised it. A stale write names the document as this node holds it:
   * the owner replicated every revision it committed here before answering.
   */
  static GramException failure(JsonObject j, String path, DocumentReader reader) {
    String message = j.getString("message");
    String kind = j.getString("kind");
    if ("stale".equals(kind)) {
      return new StaleRevisionException(message, reader.peek(path), j.getInteger("base"));
    }
    if ("reuse".equals(kind)) {
      return new RequestReuseException(message, j.getString("usedPath"), j.getInteger("usedRevision"));
    }
    ErrorCode code;
    try {
      code = ErrorCode.valueOf(j.getString("code"));
    } catch (RuntimeException e) {
      code = ErrorCode.E_INTERNAL;
    }
    return new GramException(code, message, j.getJsonObject("details"));
  }

  static String revision(Revision r) {
    return HistoryCodec.fileEntry(r);
  }

  static Revision revision(String text) {
    return GramParser.parseRevision(text);
  }

  static JsonArray revisions(List<Revision> rs) {
    JsonArray a = new JsonArray();
    for (Revision r : rs) {
      a.add(revision(r));
    }
    return a;
  }

  static List<Revision> revisions(JsonArray a) {
    List<Revision> out = new ArrayList<>();
    for (Object o : a) {
      out.add(revision((String) o));
    }
    return out;
  }
}
