package dev.gram.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.auth.AgentsFile;
import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import dev.gram.testing.AgentClient;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two agents with different approvals on one server, over every transport and both protocol eras:
 * nothing of one's private folder reaches the other through any tool (each walked with its
 * selectors), resource, subscription or prompt, and every refusal is the contract's {@code E_PATH}
 * "Path is outside the approved folders" whether or not the path exists ({@code E_READ_ONLY} for a
 * read-only folder). What an authenticated agent writes is recorded as its own name, whatever its
 * client calls itself.
 *
 * <p>The vault: {@code alpha/plan.gram} (alice's, "zebracorn"), {@code beta/secret.gram} (bob's,
 * "quokkaflux"), {@code shared/notes.gram} (alice reads, bob writes) — with links and a placement
 * that cross into the other's folder, so a tool that followed them past the gate would leak.
 * stdio is the local caller, narrowed by {@code --approve} to alice's approvals.
 */
class AgentIsolationTest {
  @TempDir static Path dir;

  static GramServer server;
  static StdioClient stdio;
  static URI mcp;
  static URI base;
  static String alice;
  static String bob;
  static String admin;
  static AgentClient adminClient;

  record Agent(String name, String token, String mine, String mineDoc, String mineRecord, String other,
      String otherDoc, String secret, boolean writesShared) {}

  static Agent aliceAgent;
  static Agent bobAgent;

  @BeforeAll
  static void start() throws Exception {
    alice = AgentsFile.newToken();
    bob = AgentsFile.newToken();
    admin = AgentsFile.newToken();
    Path agents = dir.resolve("agents.json");
    AgentsFile file = AgentsFile.empty()
        .with(agent("alice", alice, "alpha=write", "shared=read"))
        .with(agent("bob", bob, "beta=write", "shared=write"))
        .with(agent("admin", admin, "*=write"));
    file.write(agents);
    PipedOutputStream toServer = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream fromServer = new PipedInputStream(serverOut, 1 << 20);
    ServerConfig config = ServerConfig.parse(new String[] {
        "--vault", dir.resolve("vault").toString(), "--index", dir.resolve("index").toString(),
        "--no-welcome", "--no-semantic", "--port", "0", "--agents", agents.toString(),
        "--approve", "alpha=write", "--approve", "shared=read"}, Map.of());
    server = GramServer.start(config, serverIn, serverOut).toCompletionStage().toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    stdio = new StdioClient(toServer, fromServer);
    base = URI.create("http://127.0.0.1:" + server.httpPort());
    mcp = base.resolve("/mcp");
    adminClient = AgentClient.modernHttp(mcp, admin, "admin-tool");
    seed();
    aliceAgent = new Agent("alice", alice, "alpha", "alpha/plan.gram", "a1", "beta", "beta/secret.gram",
        "quokkaflux", false);
    bobAgent = new Agent("bob", bob, "beta", "beta/secret.gram", "b1", "alpha", "alpha/plan.gram",
        "zebracorn", true);
  }

  static AgentsFile.Agent agent(String name, String token, String... approvals) {
    List<Approval> list = new ArrayList<>();
    for (String a : approvals) {
      list.add(Approval.parse(a));
    }
    return new AgentsFile.Agent(name, AgentsFile.digest(token), Approvals.of(list), null);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  // ------------------------------------------------------------------ the vault

  static String betaId;
  static String alphaId;

  static void seed() {
    ok(adminClient, "gram_create", new JsonObject().put("path", "beta/secret.gram").putNull("base_revision")
        .put("title", "Quokkaflux hidden plan")
        .put("content", new JsonObject().put("text", "# Beta\n\nThe quokkaflux budget is private.")
            .put("records", new JsonArray().add(new JsonObject().put("id", "b1").put("type", "decision")
                .put("fields", new JsonObject().put("t", new JsonArray().add("Quokkaflux budget")))))));
    betaId = documentId("beta/secret.gram");
    ok(adminClient, "gram_create", new JsonObject().put("path", "alpha/plan.gram").putNull("base_revision")
        .put("title", "Zebracorn plan")
        .put("content", new JsonObject().put("text", "# Alpha\n\nThe zebracorn launch.")
            .put("records", new JsonArray().add(new JsonObject().put("id", "a1").put("type", "decision")
                .put("fields", new JsonObject().put("t", new JsonArray().add("Zebracorn launch")))
                .put("links", new JsonArray().add(new JsonObject().put("predicate", "supports")
                    .put("target", betaId + "/b1")))))));
    alphaId = documentId("alpha/plan.gram");
    patch(adminClient, "beta/secret.gram", "seed-b2", new JsonArray().add(new JsonObject().put("op", "add")
        .put("record", new JsonObject().put("id", "b2").put("type", "evidence")
            .put("fields", new JsonObject().put("t", new JsonArray().add("Quokkaflux evidence")))
            .put("links", new JsonArray().add(new JsonObject().put("predicate", "supports")
                .put("target", alphaId + "/a1"))))
        .put("place", "end")));
    ok(adminClient, "gram_create", new JsonObject().put("path", "shared/notes.gram").putNull("base_revision")
        .put("title", "Shared notes")
        .put("content", new JsonObject()
            .put("text", "# Shared\n\nCommon ground.\n\n[[" + betaId + "/b1]]\n\n[[" + alphaId + "/a1]]")
            .put("records", new JsonArray().add(new JsonObject().put("id", "s1").put("type", "task")
                .put("fields", new JsonObject().put("t", new JsonArray().add("Shared item")))
                .put("links", new JsonArray()
                    .add(new JsonObject().put("predicate", "depends").put("target", betaId + "/b1"))
                    .add(new JsonObject().put("predicate", "depends").put("target", alphaId + "/a1")))))));
  }

  static String documentId(String path) {
    JsonObject read = adminClient.request("resources/read", new JsonObject().put("uri", "gram://" + path));
    assertThat(read.containsKey("result")).as(read.encode()).isTrue();
    String gram = read.getJsonObject("result").getJsonArray("contents").getJsonObject(1).getString("text");
    Matcher m = Pattern.compile("(?m)^doc (\\S+)").matcher(gram);
    assertThat(m.find()).as(gram).isTrue();
    return m.group(1);
  }

  static JsonObject call(AgentClient c, String tool, JsonObject args) {
    JsonObject answer = c.request("tools/call", new JsonObject().put("name", tool).put("arguments", args));
    assertThat(answer.containsKey("result")).as(c.describe() + " " + tool + " " + args + ": " + answer).isTrue();
    return answer.getJsonObject("result");
  }

  static JsonObject ok(AgentClient c, String tool, JsonObject args) {
    JsonObject result = call(c, tool, args);
    assertThat(result.getBoolean("isError", false)).as(c.describe() + " " + tool + " " + args + ": " + result).isFalse();
    return result.getJsonObject("structuredContent");
  }

  static JsonObject patch(AgentClient c, String path, String requestId, JsonArray ops) {
    JsonObject doc = ok(adminClient, "gram_list", new JsonObject().put("path", path)).getJsonObject("doc");
    return call(c, "gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", requestId).put("operations", ops));
  }

  static JsonArray setTitle(String entity, String title) {
    return new JsonArray().add(new JsonObject().put("op", "set").put("entity", entity).put("key", "t")
        .put("value", title));
  }

  // ------------------------------------------------------------------ the walk

  /** Every request an agent may make of its own and shared documents: answered, with nothing of the other's. */
  static List<Map.Entry<String, JsonObject>> allowed(Agent a) {
    String since = "2000-01-01T00:00:00Z";
    List<Map.Entry<String, JsonObject>> calls = new ArrayList<>();
    Function<String, JsonObject> args = JsonObject::new;
    calls.add(Map.entry("tools/list", new JsonObject()));
    tool(calls, "gram_profile", new JsonObject());
    tool(calls, "gram_capabilities", new JsonObject());
    tool(calls, "gram_projects", new JsonObject());
    for (String mode : List.of("keyword", "exact", "auto", "hybrid", "semantic")) {
      tool(calls, "gram_recall", new JsonObject().put("query", a.secret()).put("mode", mode));
      tool(calls, "gram_recall", new JsonObject().put("query", "budget plan launch evidence").put("mode", mode));
    }
    tool(calls, "gram_recall", new JsonObject().put("query", a.secret()).put("type", "decision"));
    tool(calls, "gram_recall", new JsonObject().put("query", "plan").put("folder", ""));
    tool(calls, "gram_recall", new JsonObject().put("query", "plan").put("folder", a.mine()));
    tool(calls, "gram_recall", new JsonObject().put("query", "notes").put("documents", new JsonArray().add("shared/notes.gram")));
    tool(calls, "gram_list", new JsonObject());
    tool(calls, "gram_list", new JsonObject().put("path", a.mine()));
    tool(calls, "gram_list", new JsonObject().put("path", "shared"));
    tool(calls, "gram_list", new JsonObject().put("path", a.mineDoc()));
    tool(calls, "gram_list", new JsonObject().put("select", new JsonObject().put("type", "decision")));
    tool(calls, "gram_list", new JsonObject().put("select", new JsonObject().put("type", "evidence")));
    tool(calls, "gram_list", new JsonObject().put("path", "").put("select", new JsonObject().put("from", "2000")));
    tool(calls, "gram_get", new JsonObject().put("path", a.mineDoc()).put("entity", a.mineRecord()).put("links", true));
    tool(calls, "gram_get", new JsonObject().put("path", "shared/notes.gram").put("entity", "s1").put("links", true));
    tool(calls, "gram_get", new JsonObject().put("path", "shared/notes.gram").put("entity", "doc").put("outline", true));
    tool(calls, "gram_context", new JsonObject().put("ids", new JsonArray()
        .add(new JsonObject().put("path", a.mineDoc()).put("entity", a.mineRecord()))
        .add(new JsonObject().put("path", "shared/notes.gram").put("entity", "s1"))));
    for (String direction : List.of("out", "in", "both")) {
      tool(calls, "gram_relations", new JsonObject().put("from", new JsonObject().put("path", a.mineDoc())
          .put("entity", a.mineRecord())).put("direction", direction).put("depth", 3));
      tool(calls, "gram_relations", new JsonObject().put("from", new JsonObject().put("path", "shared/notes.gram")
          .put("entity", "s1")).put("direction", direction).put("depth", 3).put("paths", new JsonArray().add("")));
    }
    tool(calls, "gram_brief", new JsonObject());
    tool(calls, "gram_brief", new JsonObject().put("folder", a.mine()));
    tool(calls, "gram_brief", new JsonObject().put("folder", "shared"));
    tool(calls, "gram_brief", new JsonObject().put("path", "shared/notes.gram"));
    tool(calls, "gram_read", new JsonObject().put("path", "shared/notes.gram"));
    tool(calls, "gram_read", new JsonObject().put("path", "shared/notes.gram").put("section", "Shared"));
    tool(calls, "gram_read", new JsonObject().put("path", a.mineDoc()).put("revision", 0).put("section", a.mine().equals("alpha") ? "Alpha" : "Beta"));
    tool(calls, "gram_changes", new JsonObject().put("since", since));
    tool(calls, "gram_changes", new JsonObject().put("folder", "").put("since", since));
    tool(calls, "gram_changes", new JsonObject().put("folder", "shared").put("since", since));
    tool(calls, "gram_changes", new JsonObject().put("path", "shared/notes.gram").put("since_revision", 0));
    tool(calls, "gram_range", new JsonObject().put("path", a.mineDoc()));
    tool(calls, "gram_range", new JsonObject().put("path", "shared/notes.gram").put("query", a.secret()));
    tool(calls, "gram_state", new JsonObject().put("path", a.mineDoc()).put("selector", new JsonObject().put("revision", 0)));
    tool(calls, "gram_state", new JsonObject().put("path", "shared/notes.gram").put("selector", new JsonObject().put("recorded_at", "2999-01-01T00:00:00Z")));
    calls.add(Map.entry("resources/list", new JsonObject()));
    calls.add(Map.entry("resources/templates/list", new JsonObject()));
    calls.add(Map.entry("resources/read", new JsonObject().put("uri", "gram://shared/notes.gram")));
    calls.add(Map.entry("resources/read", new JsonObject().put("uri", "gram://" + a.mineDoc())));
    calls.add(Map.entry("prompts/list", new JsonObject()));
    calls.add(Map.entry("prompts/get", new JsonObject().put("name", "orient").put("arguments", new JsonObject().put("folder", a.mine()))));
    calls.add(Map.entry("prompts/get", new JsonObject().put("name", "catch_up").put("arguments",
        new JsonObject().put("path", "shared/notes.gram").put("since_revision", "0"))));
    return calls;
  }

  /** Every request that names the other's folder: refused with E_PATH, the same for what exists and what does not. */
  static List<Map.Entry<String, JsonObject>> refused(Agent a) {
    String since = "2000-01-01T00:00:00Z";
    List<Map.Entry<String, JsonObject>> calls = new ArrayList<>();
    for (String doc : List.of(a.otherDoc(), a.other() + "/missing.gram")) {
      tool(calls, "gram_list", new JsonObject().put("path", doc));
      tool(calls, "gram_read", new JsonObject().put("path", doc));
      tool(calls, "gram_get", new JsonObject().put("path", doc).put("entity", "b1"));
      tool(calls, "gram_context", new JsonObject().put("ids", new JsonArray().add(new JsonObject().put("path", doc).put("entity", "b1"))));
      tool(calls, "gram_relations", new JsonObject().put("from", new JsonObject().put("path", doc).put("entity", "b1")));
      tool(calls, "gram_brief", new JsonObject().put("path", doc));
      tool(calls, "gram_changes", new JsonObject().put("path", doc).put("since_revision", 0));
      tool(calls, "gram_range", new JsonObject().put("path", doc));
      tool(calls, "gram_state", new JsonObject().put("path", doc).put("selector", new JsonObject().put("revision", 0)));
      tool(calls, "gram_recall", new JsonObject().put("query", a.secret()).put("documents", new JsonArray().add(doc)));
      tool(calls, "gram_patch", new JsonObject().put("path", doc).put("base_revision", 0).put("expected_hash", "0000000000000000")
          .put("request_id", "intrude").put("operations", setTitle("b1", "mine now")));
      calls.add(Map.entry("resources/read", new JsonObject().put("uri", "gram://" + doc)));
    }
    for (String folder : List.of(a.other(), a.other() + "/deeper", "nowhere")) {
      tool(calls, "gram_list", new JsonObject().put("path", folder));
      tool(calls, "gram_brief", new JsonObject().put("folder", folder));
      tool(calls, "gram_changes", new JsonObject().put("folder", folder).put("since", since));
      tool(calls, "gram_recall", new JsonObject().put("query", a.secret()).put("folder", folder));
      tool(calls, "gram_relations", new JsonObject().put("from", new JsonObject().put("path", a.mineDoc())
          .put("entity", a.mineRecord())).put("paths", new JsonArray().add(folder)));
      calls.add(Map.entry("prompts/get", new JsonObject().put("name", "orient").put("arguments", new JsonObject().put("folder", folder))));
    }
    tool(calls, "gram_create", new JsonObject().put("path", a.other() + "/planted.gram").putNull("base_revision")
        .put("title", "Planted").put("content", "nothing"));
    tool(calls, "gram_create", new JsonObject().put("path", "elsewhere/planted.gram").putNull("base_revision")
        .put("title", "Planted").put("content", "nothing"));
    calls.add(Map.entry("prompts/get", new JsonObject().put("name", "catch_up").put("arguments",
        new JsonObject().put("path", a.otherDoc()).put("since_revision", "0"))));
    return calls;
  }

  static void tool(List<Map.Entry<String, JsonObject>> calls, String name, JsonObject args) {
    calls.add(Map.entry("tools/call", new JsonObject().put("name", name).put("arguments", args)));
  }

  /** The whole walk for one agent on one connection. */
  void walk(AgentClient c, Agent a) {
    String other = a.other().equals("beta") ? "beta/" : "alpha/";
    for (Map.Entry<String, JsonObject> call : allowed(a)) {
      JsonObject answer = c.request(call.getKey(), call.getValue());
      String where = c.describe() + " " + call.getKey() + " " + call.getValue().encode();
      assertThat(answer.containsKey("error")).as(where + " → " + answer).isFalse();
      JsonObject result = answer.getJsonObject("result");
      assertThat(result.getBoolean("isError", false)).as(where + " → " + result).isFalse();
      String text = answer.encode().toLowerCase(Locale.ROOT);
      assertThat(text).as(where).doesNotContain(a.secret()).doesNotContain(other);
    }
    for (Map.Entry<String, JsonObject> call : refused(a)) {
      JsonObject answer = c.request(call.getKey(), call.getValue());
      String where = c.describe() + " " + call.getKey() + " " + call.getValue().encode();
      JsonObject error;
      if (answer.containsKey("error")) {
        error = answer.getJsonObject("error").getJsonObject("data");
      } else {
        JsonObject content = answer.getJsonObject("result").getJsonObject("structuredContent");
        // gram_context answers each id on its own: the refused one carries its error.
        error = content.containsKey("items")
            ? content.getJsonArray("items").getJsonObject(0).getJsonObject("error")
            : content.getJsonObject("error");
      }
      assertThat(error).as(where + " → " + answer).isNotNull();
      assertThat(error.getString("code")).as(where + " → " + answer).isEqualTo("E_PATH");
      assertThat(error.getString("message")).as(where).isEqualTo("Path is outside the approved folders");
      assertThat(error.containsKey("details")).as(where + " → " + answer).isFalse();
      assertThat(answer.encode().toLowerCase(Locale.ROOT)).as(where).doesNotContain(a.secret());
    }
    JsonObject projects = ok(c, "gram_projects", new JsonObject());
    List<String> names = new ArrayList<>();
    projects.getJsonArray("projects").forEach(p -> names.add(((JsonArray) p).getString(0)));
    assertThat(names).as(c.describe()).contains(a.mine(), "shared").doesNotContain(a.other());
    JsonObject shared = call(c, "gram_patch", new JsonObject().put("path", "shared/notes.gram").put("base_revision", 0)
        .put("expected_hash", "0000000000000000").put("request_id", "shared-" + a.name() + "-" + c.describe().hashCode())
        .put("operations", setTitle("s1", "Shared item")));
    if (!a.writesShared()) {
      JsonObject error = shared.getJsonObject("structuredContent").getJsonObject("error");
      assertThat(error.getString("code")).as(c.describe() + " " + shared).isEqualTo("E_READ_ONLY");
    } else {
      // Allowed to write there: the stale base is what is wrong, not the approval.
      assertThat(shared.getJsonObject("structuredContent").getJsonObject("error").getString("code")).isEqualTo("STALE_REVISION");
    }
  }

  /**
   * Writes a document as {@code a} and checks the history names {@code expectedBy} in gram_changes,
   * gram_range and a subscriber's notification, whatever the client said it was.
   */
  void writesAs(AgentClient c, Agent a, String expectedBy) {
    String path = a.mine() + "/by-" + a.name() + "-" + Integer.toHexString(c.describe().hashCode()) + ".gram";
    ok(c, "gram_create", new JsonObject().put("path", path).putNull("base_revision").put("title", "Written")
        .put("content", "who wrote me"));
    JsonObject changes = ok(c, "gram_changes", new JsonObject().put("path", path).put("since", "2000-01-01T00:00:00Z"));
    assertThat(changes.getJsonArray("changes").getJsonObject(0).getString("by")).as(c.describe()).isEqualTo(expectedBy);
    JsonObject range = ok(c, "gram_range", new JsonObject().put("path", path));
    assertThat(range.getJsonArray("events").getJsonObject(0).getString("agent")).as(c.describe()).isEqualTo(expectedBy);
  }

  /**
   * A vault-wide subscription: a change to the other's document is never told, a change to the
   * shared one is, naming who made it.
   */
  void hearsOnlyWhatItMayRead(AgentClient c, Agent a) throws Exception {
    String run = a.name() + "-" + Integer.toHexString(c.describe().hashCode());
    c.subscribe(List.of("gram://"));
    // The stream may take a moment to open: until a probe write is heard, nothing can be concluded.
    JsonObject probe = null;
    for (int i = 0; i < 20 && probe == null; i++) {
      patch(adminClient, "shared/notes.gram", "probe-" + run + "-" + i, setTitle("s1", "Shared item " + i));
      probe = c.next("notifications/resources/updated", Duration.ofMillis(500));
    }
    assertThat(probe).as(c.describe() + ": no notification for the shared document").isNotNull();
    c.notifications.clear();
    patch(adminClient, a.otherDoc(), "hidden-" + run, setTitle("b1".equals(a.mineRecord()) ? "a1" : "b1",
        a.secret() + " again"));
    patch(adminClient, "shared/notes.gram", "told-" + run, setTitle("s1", "Shared item told"));
    JsonObject told;
    List<JsonObject> heard = new ArrayList<>();
    do {
      told = c.next("notifications/resources/updated", Duration.ofSeconds(10));
      assertThat(told).as(c.describe() + ": the shared document's change was not told").isNotNull();
      heard.add(told);
    } while (!told.encode().contains("shared/notes.gram"));
    heard.addAll(c.notifications);
    for (JsonObject n : heard) {
      assertThat(n.encode()).as(c.describe()).doesNotContain(a.otherDoc()).doesNotContain(a.secret());
    }
    assertThat(told.getJsonObject("params").getJsonObject("_meta").getString("by")).isEqualTo("admin");
  }

  // ------------------------------------------------------------------ per transport

  @Test
  void legacyStreamableHttpSessions() throws Exception {
    for (Agent a : List.of(aliceAgent, bobAgent)) {
      AgentClient c = AgentClient.legacyHttp(mcp, a.token(), "impostor-of-" + a.other());
      walk(c, a);
      writesAs(c, a, a.name());
      hearsOnlyWhatItMayRead(c, a);
    }
  }

  @Test
  void statelessModernRequests() throws Exception {
    for (Agent a : List.of(aliceAgent, bobAgent)) {
      AgentClient c = AgentClient.modernHttp(mcp, a.token(), "admin");
      walk(c, a);
      writesAs(c, a, a.name());
      hearsOnlyWhatItMayRead(c, a);
    }
  }

  @Test
  void legacyHttpPlusSse() throws Exception {
    for (Agent a : List.of(aliceAgent, bobAgent)) {
      AgentClient c = AgentClient.sse(base, a.token(), "impostor");
      walk(c, a);
      writesAs(c, a, a.name());
      hearsOnlyWhatItMayRead(c, a);
    }
  }

  @Test
  void stdioIsTheLocalCallerNarrowedByApprove() throws Exception {
    stdio.initialize("sidecar-runtime", "2025-06-18");
    AgentClient legacy = AgentClient.stdio(stdio, "sidecar-runtime", false);
    walk(legacy, aliceAgent);
    // stdio proves no name: the client's own stands, as it always did.
    writesAs(legacy, aliceAgent, "sidecar-runtime");
    AgentClient modern = AgentClient.stdio(stdio, "modern-sidecar", true);
    walk(modern, aliceAgent);
    writesAs(modern, aliceAgent, "modern-sidecar");
    hearsOnlyWhatItMayRead(legacy, aliceAgent);
  }

  @Test
  void aSessionIsItsOpenersAlone() {
    String session = AgentClient.legacyHttp(mcp, alice, "alice-client").sessionId();
    JsonObject projects = new JsonObject().put("jsonrpc", "2.0").put("id", 9).put("method", "tools/call")
        .put("params", new JsonObject().put("name", "gram_projects").put("arguments", new JsonObject()));
    // Bob naming alice's session gets what an unknown session gets.
    assertThat(AgentClientHttp.post(mcp, bob, session, projects).statusCode()).isEqualTo(404);
    assertThat(AgentClientHttp.post(mcp, alice, session, projects).statusCode()).isEqualTo(200);
  }

  /** Raw POSTs naming a session, for the session test. */
  static final class AgentClientHttp {
    static java.net.http.HttpResponse<String> post(URI mcp, String token, String session, JsonObject body) {
      try {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(mcp)
            .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", "2025-06-18")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body.encode())).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
  }
}
