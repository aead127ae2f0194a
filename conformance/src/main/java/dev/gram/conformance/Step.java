package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/** One step of a case: a tool call, a raw request, or an edit of the vault by another program. */
final class Step {
  private final McpClient client;
  private final Runner.Options o;
  private final Map<String, JsonNode> vars;

  Step(McpClient client, Runner.Options o, Map<String, JsonNode> vars) {
    this.client = client;
    this.o = o;
    this.vars = vars;
  }

  static String describe(JsonNode s) {
    if (s.has("call")) {
      return "call " + s.get("call").asText();
    }
    if (s.has("request")) {
      return "request " + s.get("request").asText();
    }
    return "edit " + s.get("edit").asText();
  }

  String run(JsonNode s) throws IOException {
    if (s.has("edit")) {
      edit(s);
      return null;
    }
    JsonNode expect = s.path("expect");
    JsonNode response;
    if (s.has("call")) {
      JsonNode args = Template.expand(s.has("args") ? s.get("args") : Json.object(), vars);
      response = client.callTool(s.get("call").asText(), args);
    } else {
      JsonNode params = Template.expand(s.has("params") ? s.get("params") : Json.object(), vars);
      if (!params.isObject()) {
        throw new Template.CaseError("params must be an object");
      }
      response = client.request(s.get("request").asText(), (ObjectNode) params, s.path("meta").asBoolean(true));
    }
    JsonNode rpcError = response.get("error");
    if (expect.has("rpcError")) {
      if (rpcError == null) {
        return "expected a JSON-RPC error, got " + Json.brief(response.get("result"), 300);
      }
      String f = Template.match(expect.get("rpcError"), rpcError, vars);
      return f == null ? save(s, rpcError) : "JSON-RPC error " + f;
    }
    if (rpcError != null) {
      return "JSON-RPC error " + rpcError.path("code").asText() + ": " + rpcError.path("message").asText();
    }
    JsonNode result = response.get("result");
    if (result == null || !result.isObject()) {
      return "the response has no result object: " + Json.brief(response, 300);
    }
    if (client.era() == Era.MODERN && !"complete".equals(result.path("resultType").asText())) {
      return "a 2026-07-28 result must carry resultType \"complete\", got " + Json.brief(result.get("resultType"), 60);
    }
    if (s.has("request")) {
      if (expect.has("response")) {
        String f = Template.match(expect.get("response"), result, vars);
        if (f != null) {
          return f;
        }
      }
      return save(s, result);
    }
    return toolResult(s, expect, result);
  }

  private String toolResult(JsonNode s, JsonNode expect, JsonNode result) {
    boolean isError = result.path("isError").asBoolean(false);
    JsonNode structured = result.get("structuredContent");
    if (structured == null) {
      return "the tool result has no structuredContent: " + Json.brief(result, 300);
    }
    JsonNode content = result.get("content");
    if (content == null || !content.isArray() || content.isEmpty()) {
      return "the tool result has no content: " + Json.brief(result, 300);
    }
    if (isError) {
      JsonNode error = structured.get("error");
      if (error == null || !error.path("code").isTextual() || !error.path("message").isTextual()) {
        return "an isError result without error {code, message}: " + Json.brief(structured, 300);
      }
      if (!expect.has("error")) {
        return "expected a result, got " + error.get("code").asText() + ": " + error.get("message").asText();
      }
      JsonNode want = expect.get("error");
      if (!want.path("code").asText().equals(error.get("code").asText())) {
        return "expected error " + want.path("code").asText() + ", got " + error.get("code").asText() + ": " + error.get("message").asText();
      }
      String f = Template.match(want.has("message") ? want.get("message") : TextNode.valueOf("<string>"), error.get("message"), vars);
      if (f == null && want.has("details")) {
        f = Template.match(want.get("details"), error.get("details"), vars);
        f = f == null ? null : "details" + f;
      }
      return f == null ? save(s, structured) : "message" + f;
    }
    if (expect.has("error")) {
      return "expected error " + expect.get("error").path("code").asText() + ", got a result: " + Json.brief(structured, 300);
    }
    // The contract's results carry the same JSON twice: as structuredContent and as text.
    JsonNode first = content.get(0);
    if (!"text".equals(first.path("type").asText())) {
      return "the first content item is not text: " + Json.brief(first, 200);
    }
    try {
      if (!Template.literal(structured, Json.parse(first.path("text").asText()))) {
        return "the text content is not the JSON of structuredContent";
      }
    } catch (IOException e) {
      return "the text content is not JSON: " + e.getMessage();
    }
    if (expect.has("result")) {
      String f = Template.match(expect.get("result"), structured, vars);
      if (f != null) {
        return f;
      }
    }
    return save(s, structured);
  }

  private String save(JsonNode s, JsonNode root) {
    if (!s.has("save")) {
      return null;
    }
    for (Map.Entry<String, JsonNode> e : s.get("save").properties()) {
      String pointer = e.getValue().asText();
      JsonNode v = pointer.isEmpty() ? root : root.at(pointer);
      if (v == null || v.isMissingNode()) {
        return "nothing at " + pointer + " to save as " + e.getKey() + " in " + Json.brief(root, 200);
      }
      vars.put(e.getKey(), v.deepCopy());
    }
    return null;
  }

  /** Changes a file of the vault the way another program (an editor, git) would. */
  private void edit(JsonNode s) throws IOException {
    if (o.vaultDir == null) {
      throw new Template.CaseError("an edit step needs --vault-dir (declare needs: [\"vault-dir\"])");
    }
    String relative = Template.expandString(s.get("edit").asText(), vars).asText();
    Path root = o.vaultDir.toAbsolutePath().normalize();
    Path file = root.resolve(relative).normalize();
    if (!file.startsWith(root) || file.equals(root)) {
      throw new Template.CaseError("edit path " + relative + " leaves the vault");
    }
    if (s.path("delete").asBoolean(false)) {
      Files.deleteIfExists(file);
      return;
    }
    String text = s.has("text") ? Template.expand(s.get("text"), vars).asText() : "";
    String next;
    if (s.has("write")) {
      next = Template.expand(s.get("write"), vars).asText();
    } else if (s.has("append")) {
      next = Files.readString(file, StandardCharsets.UTF_8) + Template.expand(s.get("append"), vars).asText();
    } else if (s.has("insertBefore")) {
      String old = Files.readString(file, StandardCharsets.UTF_8);
      String marker = s.get("insertBefore").asText();
      int at;
      if (old.startsWith(marker)) {
        at = 0;
      } else {
        int newline = old.indexOf("\n" + marker);
        at = newline < 0 ? old.length() : newline + 1;
      }
      next = old.substring(0, at) + text + old.substring(at);
    } else {
      throw new Template.CaseError("an edit step is delete, write, append or insertBefore with text");
    }
    // Write beside and rename over, as editors do, so the server never reads half a file.
    Path tmp = file.resolveSibling("." + file.getFileName() + ".conformance-edit");
    Files.writeString(tmp, next, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
