package dev.gram.tools;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.base.ResponseBudget;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code gram_profile}: the contract of this server for one task — what to write and how it
 * reads back. The text lives in {@code profile.json} beside this class so that it can be read and
 * reviewed as a whole; every statement in it is about what this server does.
 */
public final class GramProfile extends ReadTool {
  private static final JsonObject PROFILE = load();

  public GramProfile(GramContext ctx) {
    super(ctx, "gram_profile");
  }

  @Override
  public String description() {
    return "How to write and read this server's documents, for one task: create, edit (every patch operation with "
        + "an example), rich (the gram-rich/1 body tree), read (default: how answers show records and bodies) or "
        + "memory (history, time, recall). Read it before your first write.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    String task = args.getString("task", "read");
    JsonObject answer =
        new JsonObject()
            .put("budget_bytes", ResponseBudget.BYTES)
            .put("common", PROFILE.getJsonObject("common").copy())
            .put("profile", PROFILE.getString("profile"));
    JsonObject section = PROFILE.getJsonObject(task);
    if (section == null) {
      throw new GramException(ErrorCode.E_ARGUMENT, "task is one of create, edit, rich, read, memory");
    }
    answer.mergeIn(section.copy());
    answer.put("task", task);
    return Future.succeededFuture(answer);
  }

  private static JsonObject load() {
    try (InputStream in = GramProfile.class.getResourceAsStream("profile.json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
