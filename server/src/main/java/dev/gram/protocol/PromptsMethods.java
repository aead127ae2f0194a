package dev.gram.protocol;

import dev.gram.tools.spi.Prompts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * Answers {@code prompts/list} and {@code prompts/get} in both eras. The prompts never change
 * while the server runs, so 2026-07-28 clients may cache the list like the tool list.
 */
final class PromptsMethods {
  private final Prompts prompts;
  private final ServerInfo info;
  private final Refusals refusals;

  PromptsMethods(Prompts prompts, ServerInfo info, ProtocolMetrics metrics) {
    this.prompts = prompts;
    this.info = info;
    this.refusals = new Refusals(metrics);
  }

  Reply list(JsonRpc.Request req, Era era) {
    if (req.params().getValue("cursor") != null) {
      return ResourcesMethods.invalid(req, "unknown cursor");
    }
    JsonArray items = new JsonArray();
    for (Prompts.Prompt p : prompts.list()) {
      JsonArray args = new JsonArray();
      for (Prompts.Argument a : p.arguments()) {
        args.add(
            new JsonObject()
                .put("name", a.name())
                .put("description", a.description())
                .put("required", a.required()));
      }
      items.add(
          new JsonObject()
              .put("name", p.name())
              .put("title", p.title())
              .put("description", p.description())
              .put("arguments", args));
    }
    return Reply.result(req.id(), CacheHints.stable(new JsonObject().put("prompts", items), era, info));
  }

  Reply get(JsonRpc.Request req, Era era, dev.gram.access.Identity caller) {
    if (!(req.params().getValue("name") instanceof String name)) {
      return ResourcesMethods.invalid(req, "name must be a string");
    }
    Object rawArgs = req.params().getValue("arguments");
    if (rawArgs != null && !(rawArgs instanceof JsonObject)) {
      return ResourcesMethods.invalid(req, "arguments must be an object");
    }
    Map<String, String> args = new HashMap<>();
    if (rawArgs instanceof JsonObject o) {
      for (String key : o.fieldNames()) {
        if (!(o.getValue(key) instanceof String value)) {
          return ResourcesMethods.invalid(req, "argument " + key + " must be a string");
        }
        args.put(key, value);
      }
    }
    Prompts.Rendered rendered;
    try {
      rendered = prompts.as(caller).get(name, args);
    } catch (RuntimeException e) {
      refusals.note("prompts/get " + name, caller, e);
      return ResourceErrors.of(req.id(), e);
    }
    JsonArray messages = new JsonArray();
    for (Prompts.Message m : rendered.messages()) {
      messages.add(
          new JsonObject()
              .put("role", m.role())
              .put("content", new JsonObject().put("type", "text").put("text", m.text())));
    }
    JsonObject result =
        new JsonObject().put("description", rendered.description()).put("messages", messages);
    if (era == Era.MODERN) {
      result.put("resultType", "complete").put("_meta", info.resultMeta());
    }
    return Reply.result(req.id(), result);
  }
}
