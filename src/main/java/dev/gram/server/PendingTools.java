package dev.gram.server;

import dev.gram.tools.CallContext;
import dev.gram.tools.ErrorCode;
import dev.gram.tools.ResponseBudget;
import dev.gram.tools.Tool;
import dev.gram.tools.ToolException;
import dev.gram.tools.ToolRegistry;
import dev.gram.tools.ToolSchemas;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Stand-ins for the 15 tools until the document store arrives: real names, descriptions and
 * contract schemas (so clients, validation and transports can be exercised end to end), answering
 * {@code E_INTERNAL "<name> is not built yet"}. {@code gram_capabilities} and {@code gram_profile}
 * answer truthfully for a server without a store. Replaced wholesale at merge.
 */
public final class PendingTools {
  private PendingTools() {}

  private static final Map<String, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry(
              "gram_profile",
              "How to write and read .gram documents on this server: the record vocabulary, the "
                  + "Markdown body, links, and the write rules. Read it once before your first write."),
          Map.entry(
              "gram_projects",
              "The vault's top-level project folders and mounted collections, each with its key, "
                  + "kind, document count and access. Use a key exactly as a path prefix."),
          Map.entry(
              "gram_capabilities",
              "What this server can do right now: the response budget in bytes, the search index "
                  + "state, whether semantic search is available and why not, and the tool names."),
          Map.entry(
              "gram_recall",
              "Search the vault's documents and records by keywords (or meaning, when semantic "
                  + "search is available). Returns ranked hits with paths and record ids; page with "
                  + "the cursor."),
          Map.entry(
              "gram_list",
              "List documents under a folder, or the records of one document, with titles, types "
                  + "and revisions. Large lists page with a cursor."),
          Map.entry(
              "gram_get",
              "Read one record (or the document owner) of a document: chosen fields, links, "
                  + "blocks, or the body outline, now or at a past revision or time."),
          Map.entry(
              "gram_context",
              "Read several records at once, with their fields, links and body text in which "
                  + "mentions read as the records they point at."),
          Map.entry(
              "gram_relations",
              "Follow links from a record: the records it points to and the records pointing at "
                  + "it, to the depth asked, across documents."),
          Map.entry(
              "gram_brief",
              "A short digest of one document: its title, description, headings and record "
                  + "counts, to decide what to read next."),
          Map.entry(
              "gram_read",
              "Read one document a section at a time: without a section, the heading outline; "
                  + "with one, that section's Markdown, continued with the cursor."),
          Map.entry(
              "gram_changes",
              "What changed in a document since a revision: each revision's author, time and "
                  + "changed records. Page with the cursor."),
          Map.entry(
              "gram_range",
              "The revisions and times a document spans: first and last revision, when each was "
                  + "recorded, and by whom."),
          Map.entry(
              "gram_state",
              "A document as it was at a revision or a time: its records and body then, page by "
                  + "page."),
          Map.entry(
              "gram_create",
              "Create a new document at a path that does not exist yet (base_revision must be "
                  + "null): title, Markdown body and records in one revision."),
          Map.entry(
              "gram_patch",
              "Change a document with compare-and-swap: pass the base_revision and expected_hash "
                  + "you read, a request_id, and operations. Retrying with the same request_id "
                  + "replays the original answer instead of writing twice."));

  /** The 15 stand-ins in contract order. */
  public static List<Tool> all(ServerConfig config) {
    List<Tool> tools = new ArrayList<>();
    for (String name : ToolRegistry.CONTRACT_ORDER) {
      tools.add(new Pending(name, DESCRIPTIONS.get(name), config));
    }
    return tools;
  }

  private static final class Pending implements Tool {
    private final String name;
    private final String description;
    private final JsonObject schema;
    private final ServerConfig config;

    Pending(String name, String description, ServerConfig config) {
      this.name = name;
      this.description = description;
      this.schema = ToolSchemas.load(name);
      this.config = config;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return description;
    }

    @Override
    public JsonObject inputSchema() {
      return schema.copy();
    }

    @Override
    public boolean readOnly() {
      return !name.equals("gram_create") && !name.equals("gram_patch");
    }

    @Override
    public boolean idempotent() {
      // A repeated gram_patch with the same request_id replays its receipt.
      return readOnly() || name.equals("gram_patch");
    }

    @Override
    public Future<JsonObject> call(JsonObject arguments, CallContext context) {
      return switch (name) {
        case "gram_capabilities" -> Future.succeededFuture(capabilities());
        case "gram_profile" ->
            Future.succeededFuture(
                new JsonObject()
                    .put("task", arguments.getString("task", "read"))
                    .put("budget_bytes", ResponseBudget.BYTES));
        default ->
            Future.failedFuture(new ToolException(ErrorCode.E_INTERNAL, name + " is not built yet"));
      };
    }

    private JsonObject capabilities() {
      String reason =
          config.semantic()
              ? "EMBEDDING_UNAVAILABLE: the document store and its index are not built yet"
              : "DISABLED: semantic search was turned off with --no-semantic";
      return new JsonObject()
          .put("budget_bytes", ResponseBudget.BYTES)
          .put(
              "index",
              new JsonObject()
                  .put("embeddedChunks", 0)
                  .put("failedFiles", 0)
                  .put("indexedFiles", 0)
                  .put("pendingFiles", 0))
          .put("semantic", new JsonObject().put("status", "unavailable").put("reason", reason))
          .put("tools", new JsonArray(new ArrayList<>(ToolRegistry.CONTRACT_ORDER)));
    }
  }
}
