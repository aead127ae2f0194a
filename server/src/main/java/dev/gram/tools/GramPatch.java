package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.store.RequestDigest;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import dev.gram.tools.spi.CallContext;
import dev.gram.tools.spi.Tool;
import dev.gram.tools.support.GramContext;
import dev.gram.tools.support.WriteErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code gram_patch}: one revision made of one or more operations (see {@link
 * dev.gram.edit.PatchOps}), committed only against the revision and hash the caller saw, and
 * idempotent by request_id.
 */
public final class GramPatch implements Tool {
  static final String NAME = "gram_patch";
  static final String BASE_REQUIRED = "base_revision required";
  static final String REQUEST_ID_REQUIRED = "Nonempty request_id required";

  private static final JsonObject SCHEMA = ToolSchemas.load(NAME);

  /** The longest request_id: the published schema's {@code maxLength}, the one place it is set. */
  static final int MAX_REQUEST_ID =
      SCHEMA.getJsonObject("properties").getJsonObject("request_id").getInteger("maxLength");

  private final GramContext ctx;

  public GramPatch(GramContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Change a document in one revision, only if it is still at base_revision with expected_hash (the rev and "
        + "hash you read). Operations: add (with place \"end\", {after: id}, {before: id} or {section: heading} to "
        + "put the record in the body too), set, append, remove, unset, del, block, link, unlink, rel, and body edits "
        + "by node id: insert, replace, drop, move, body. All apply or none does. Resending the same request_id with "
        + "the same change returns the original receipt; a changed request under a used id is E_REQUEST_REUSE. "
        + "gram_profile task edit describes every operation.";
  }

  @Override
  public JsonObject inputSchema() {
    return SCHEMA.copy();
  }

  @Override
  public boolean readOnly() {
    return false;
  }

  @Override
  public boolean idempotent() {
    return true;
  }

  /**
   * The request_id rules, checked here and nowhere else (the schema states the same bounds for
   * clients, but its {@code E_ARGUMENT} must not win over {@code E_REQUEST_ID}). The protocol
   * layer runs this before validating the arguments and before {@link #call}.
   */
  @Override
  public void precheck(JsonObject args) {
    if (args.getValue("base_revision") == null) {
      throw new GramException(ErrorCode.E_CAS_REQUIRED, BASE_REQUIRED);
    }
    Object id = args.getValue("request_id");
    if (!(id instanceof String s) || s.isEmpty()) {
      throw new GramException(ErrorCode.E_REQUEST_ID, REQUEST_ID_REQUIRED);
    }
    if (s.length() > MAX_REQUEST_ID) {
      throw new GramException(
          ErrorCode.E_REQUEST_ID, "request_id is longer than " + MAX_REQUEST_ID + " characters");
    }
  }

  @Override
  public Future<JsonObject> call(JsonObject args, CallContext call) {
    VaultPath path = ctx.reader().paths().writableDocument(args.getString("path"));
    int base = args.getInteger("base_revision");
    String hash = args.getString("expected_hash");
    String requestId = args.getString("request_id");
    JsonArray operations = args.getJsonArray("operations");
    if (operations == null || operations.isEmpty()) {
      throw new GramException(ErrorCode.E_ARGUMENT, "operations must name at least one operation");
    }
    String eff = WriteAnswers.effectiveAt(args);
    String digest = RequestDigest.of(path.path(), base, hash, operations, eff);
    return ctx.writer()
        .submit(new WriteCommand.Patch(path, base, hash, requestId, digest, operations, call.agent(), eff))
        .map(WriteAnswers::of)
        .recover(e -> Future.failedFuture(WriteErrors.forClient(e)));
  }
}
