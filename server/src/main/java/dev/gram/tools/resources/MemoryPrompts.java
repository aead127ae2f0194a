package dev.gram.tools.resources;

import dev.gram.access.Identity;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.gate.Gate;
import dev.gram.tools.spi.Prompts;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prompts that teach the habits a shared memory needs: orient before acting (brief, then only
 * what changed), record a decision together with its evidence in one revision, and catch up after
 * a notification from the history rather than from the notification itself.
 */
public final class MemoryPrompts implements Prompts {

  private static final List<Prompt> PROMPTS =
      List.of(
          new Prompt(
              "orient",
              "Orient in a project",
              "Brief a project folder, then read only what changed since a time: the way to start "
                  + "work in a vault other agents also write.",
              List.of(
                  new Argument("folder", "The project folder, e.g. research", true),
                  new Argument(
                      "since",
                      "An ISO time (or the next value of a previous brief) to list changes after",
                      false))),
          new Prompt(
              "record_decision",
              "Record a decision with its evidence",
              "Add a decision record and the evidence that supports it to a document in one "
                  + "revision, linked and placed in the body.",
              List.of(
                  new Argument("path", "The document, e.g. research/lunar.gram", true),
                  new Argument("decision", "The decision, one line", true),
                  new Argument("evidence", "What supports it, one line", false))),
          new Prompt(
              "catch_up",
              "Catch up after a notification",
              "A resource notification is a hint: read what changed from the history since the "
                  + "last revision you saw, then continue from the new rev and hash.",
              List.of(
                  new Argument("path", "The document the notification named", true),
                  new Argument("since_revision", "The last revision you had seen", true))));

  @Override
  public List<Prompt> list() {
    return PROMPTS;
  }

  /**
   * The prompts for {@code caller}: a prompt that names a folder or a document the caller may not
   * read (or, for {@code record_decision}, write) is refused with the gate's error, so no prompt
   * sends an agent where its tools would refuse it.
   */
  @Override
  public Prompts as(Identity caller) {
    if (Gate.unrestricted(caller)) {
      return this;
    }
    MemoryPrompts all = this;
    return new Prompts() {
      @Override
      public List<Prompt> list() {
        return all.list();
      }

      @Override
      public Rendered get(String name, Map<String, String> arguments) {
        Rendered rendered = all.get(name, arguments);
        String folder = arguments.get("folder");
        if (folder != null) {
          Gate.checkFolder(caller, normalized(folder));
        }
        String path = arguments.get("path");
        if (path != null) {
          Gate.check(caller, normalized(path), "record_decision".equals(name));
        }
        return rendered;
      }
    };
  }

  /** A path as prompts take it, in the form approvals compare: no leading or trailing slash. */
  private static String normalized(String path) {
    return path.strip().replaceAll("^/+|/+$", "");
  }

  @Override
  public Rendered get(String name, Map<String, String> arguments) {
    Prompt prompt = PROMPTS.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    if (prompt == null) {
      throw new GramException(
          ErrorCode.E_ARGUMENT,
          "Unknown prompt " + name,
          new JsonObject().put("prompt", String.valueOf(name)));
    }
    for (Argument a : prompt.arguments()) {
      String v = arguments.get(a.name());
      if (a.required() && (v == null || v.isBlank())) {
        throw new GramException(
            ErrorCode.E_ARGUMENT,
            "Missing argument " + a.name() + " for prompt " + name,
            new JsonObject().put("argument", a.name()));
      }
    }
    if ("catch_up".equals(name) && !arguments.get("since_revision").strip().matches("\\d{1,9}")) {
      throw new GramException(
          ErrorCode.E_ARGUMENT,
          "since_revision must be a revision number",
          new JsonObject().put("argument", "since_revision"));
    }
    return new Rendered(prompt.description(), List.of(new Message("user", text(name, arguments))));
  }

  private static String text(String name, Map<String, String> args) {
    return switch (name) {
      case "orient" -> orient(args.get("folder"), args.get("since"));
      case "record_decision" ->
          recordDecision(args.get("path"), args.get("decision"), args.get("evidence"));
      default -> catchUp(args.get("path"), args.get("since_revision"));
    };
  }

  private static String orient(String folder, String since) {
    List<String> steps = new ArrayList<>();
    steps.add("Call gram_brief with {\"folder\": " + quote(folder) + "}: note each document's rev and "
        + "hash, the open work and the recent revisions, and keep next.");
    if (since != null && !since.isBlank()) {
      steps.add("Call gram_changes with {\"folder\": " + quote(folder) + ", \"since\": " + quote(since)
          + "} to see only what changed since then, by whom.");
    } else {
      steps.add("On your next visit, call gram_changes with {\"folder\": " + quote(folder)
          + ", \"since\": <next>} instead of reading everything again.");
    }
    steps.add("Subscribe to gram://" + folder.replaceAll("/+$", "") + "/ to hear of other agents' "
        + "writes as they land; a notification is a hint, gram_changes is the record.");
    return "Orient yourself in the project " + folder + " before you act.\n\n" + numbered(steps);
  }

  private static String recordDecision(String path, String decision, String evidence) {
    StringBuilder sb = new StringBuilder();
    sb.append("Record this decision in ").append(path).append(": ").append(decision).append("\n\n");
    List<String> steps = new ArrayList<>();
    steps.add("Read " + path + " (gram_brief or gram_read) and keep its rev and hash.");
    String ops = "{op: add, record: {type: decision, fields: {t: [" + quote(decision)
        + "], x: [\"accepted\"]}}, place: \"end\"}";
    if (evidence != null && !evidence.isBlank()) {
      ops += " and {op: add, record: {type: evidence, fields: {t: [" + quote(evidence)
          + "]}, links: [{predicate: supports, target: <the decision's id>}]}, place: \"end\"}";
    }
    steps.add("Call gram_patch once with base_revision and expected_hash from that read, a new "
        + "request_id, and the operations " + ops + ": one revision holds the decision and its "
        + "evidence.");
    steps.add("On STALE_REVISION, read again, redo the change on the new state, use a new "
        + "request_id.");
    return sb.append(numbered(steps)).toString();
  }

  private static String catchUp(String path, String sinceRevision) {
    return "Another agent changed " + path + ".\n\n"
        + numbered(
            List.of(
                "Call gram_changes with {\"path\": " + quote(path) + ", \"since_revision\": "
                    + sinceRevision.strip() + "} to see every revision after the one you had, with who "
                    + "wrote it and what changed.",
                "Continue from the rev and hash its answer (or the notification) gives: patch "
                    + "against them, not against what you read before.",
                "Notifications may be coalesced or lost; the history is complete, so always "
                    + "catch up from the last revision you saw."));
  }

  private static String numbered(List<String> steps) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < steps.size(); i++) {
      sb.append(i + 1).append(". ").append(steps.get(i)).append('\n');
    }
    return sb.toString().stripTrailing();
  }

  private static String quote(String s) {
    return new io.vertx.core.json.JsonArray().add(s).encode().replaceAll("^\\[|\\]$", "");
  }
}
