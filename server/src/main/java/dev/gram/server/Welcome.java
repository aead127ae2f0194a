package dev.gram.server;

import dev.gram.edit.Creation;
import dev.gram.store.CommitReceipt;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The short document a new vault starts with, written through the store like any other. */
final class Welcome {
  private static final Logger LOG = LoggerFactory.getLogger(Welcome.class);
  static final String PATH = "getting-started/welcome.gram";

  private Welcome() {}

  static Future<CommitReceipt> write(Vault vault, dev.gram.store.DocumentWriter writer) {
    VaultPath path = vault.paths().writableDocument(PATH);
    String body =
        String.join(
            "\n",
            "# Welcome",
            "",
            "This vault is shared memory for agents. Each `.gram` file is one document: an owner, a body like this one, and typed records. Every revision stays in the file.",
            "",
            "[[start]]",
            "",
            "## How agents use it",
            "",
            "1. `gram_profile` explains what to write; `gram_brief` shows where things stand.",
            "2. `gram_create` and `gram_patch` write, against the rev and hash they read.",
            "3. `gram_recall` finds things again; `gram_changes` says what is new since a visit.");
    JsonObject content =
        new JsonObject()
            .put("text", body)
            .put(
                "records",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("type", "task")
                            .put("id", "start")
                            .put(
                                "fields",
                                new JsonObject()
                                    .put("t", new JsonArray().add("Connect an agent and read gram_profile"))
                                    .put("x", new JsonArray().add("open"))
                                    .put("p", new JsonArray().add("high")))));
    Creation.Result r = Creation.build(Creation.newDocumentId(), "Welcome", content, id -> false);
    return writer
        .submit(new WriteCommand.Create(path, r.state(), "gram-mcp", null, r.created(), r.diagnostics()))
        .onSuccess(c -> LOG.info("wrote {} into the new vault", PATH))
        .onFailure(e -> LOG.warn("could not write the welcome document: {}", e.getMessage()));
  }
}
