package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.Creation;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.WriteErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * {@code gram_create}: revision 0 of a new document. There is no request_id: creating where a
 * document exists is {@code STALE_REVISION} "Create target already exists" and leaves it alone,
 * so an agent whose answer was lost reads the path instead of creating twice.
 */
public final class GramCreate implements Tool {
  static final String NULL_BASE = "Create requires explicit null base_revision";

  private final GramContext ctx;

  public GramCreate(GramContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return "gram_create";
  }

  @Override
  public String description() {
    return "Create a .gram document at path (ending in .gram; a new folder becomes a new project) as revision 0. "
        + "base_revision must be present and null. title becomes the owner's t. content is the body as md text, "
        + "or {text | rich, records, fields, blocks} to write the body, records ({type, id?, fields:{key:[values]}, "
        + "links, blocks}), owner fields and blocks in the same revision. effective_at (ISO time) records when the "
        + "facts happened. Creating where a document exists fails with STALE_REVISION and changes nothing.";
  }

  @Override
  public JsonObject inputSchema() {
    return ToolSchemas.load(name());
  }

  @Override
  public boolean readOnly() {
    return false;
  }

  @Override
  public boolean idempotent() {
    return false;
  }

  @Override
  public void precheck(JsonObject args) {
    if (!args.containsKey("base_revision") || args.getValue("base_revision") != null) {
      throw new GramException(ErrorCode.E_CAS_REQUIRED, NULL_BASE);
    }
  }

  @Override
  public Future<JsonObject> call(JsonObject args, CallContext call) {
    VaultPath path = ctx.reader().paths().writableDocument(args.getString("path"));
    String eff = WriteAnswers.effectiveAt(args);
    Creation.Result built =
        Creation.build(
            Creation.newDocumentId(),
            args.getString("title"),
            args.getValue("content"),
            id -> ctx.reader().pathOfDocumentId(id) != null);
    return ctx.writer()
        .submit(new WriteCommand.Create(path, built.state(), call.agent(), eff, built.created(), built.diagnostics()))
        .map(WriteAnswers::of)
        .recover(e -> Future.failedFuture(WriteErrors.forClient(e)));
  }
}
