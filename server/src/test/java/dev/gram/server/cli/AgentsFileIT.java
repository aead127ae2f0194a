package dev.gram.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.auth.AgentsFile;
import dev.gram.testing.AgentClient;
import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents file as an operator uses it, through the jar: {@code agents add} prints a token once
 * and keeps only its digest, {@code agents list} shows names and approvals, a server started with
 * {@code --agents} lets the token in and no other, and changes to the file (an agent added, one
 * revoked, approvals edited by hand) reach the running server without a restart — a revoked token
 * is refused, a subscription stops hearing of a folder taken away. A bad file stops the start with
 * one line naming it and the fault.
 */
class AgentsFileIT {
  @TempDir Path dir;

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  String add(Path file, String name, String... approvals) {
    String[] args = new String[4 + 2 * approvals.length];
    args[0] = "agents";
    args[1] = "add";
    args[2] = name;
    for (int i = 0; i < approvals.length; i++) {
      args[3 + 2 * i] = "--approve";
      args[4 + 2 * i] = approvals[i];
    }
    args[args.length - 1] = "--agents=" + file;
    Cli.Run r = Cli.run(dir, args);
    assertThat(r.exit()).as(r.toString()).isZero();
    String token = r.out().strip();
    assertThat(token).as(r.toString()).startsWith(AgentsFile.TOKEN_PREFIX).doesNotContain("\n");
    return token;
  }

  static int status(ServerProcess server, String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(server.mcpUrl()).header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream").header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
            .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "probe").put("version", "1"))).encode())).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  /** Waits for what a reload of the agents file brings about (the server reads it every second). */
  static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("never happened: " + what).isLessThan(end);
      Thread.sleep(100);
    }
  }

  static BooleanSupplier answers(ServerProcess server, String token, int expected) {
    return () -> {
      try {
        return status(server, token) == expected;
      } catch (Exception e) {
        return false;
      }
    };
  }

  static JsonObject tool(AgentClient c, String name, JsonObject args) {
    return c.request("tools/call", new JsonObject().put("name", name).put("arguments", args)).getJsonObject("result")
        .getJsonObject("structuredContent");
  }

  @Test
  void addUseListReloadRevoke() throws Exception {
    Path file = dir.resolve("agents.json");
    String planner = add(file, "planner", "project-a=write", "shared=read");
    String admin = add(file, "admin", "*=write");
    String text = Files.readString(file);
    assertThat(text).contains(AgentsFile.digest(planner)).doesNotContain(planner).doesNotContain(admin);

    Cli.Run list = Cli.run(dir, "agents", "list", "--agents", file.toString());
    assertThat(list.exit()).isZero();
    assertThat(list.out()).contains("planner", "project-a=write", "shared=read", "admin", "*=write")
        .doesNotContain(planner);
    Cli.Run twice = Cli.run(dir, "agents", "add", "planner", "--approve", "x=read", "--agents", file.toString());
    assertThat(twice.exit()).isEqualTo(1);
    assertThat(twice.err()).contains("planner exists already");

    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-stdio", "--agents", file.toString())) {
      assertThat(status(server, planner)).isEqualTo(200);
      assertThat(status(server, AgentsFile.newToken())).isEqualTo(401);
      AgentClient adminClient = AgentClient.modernHttp(server.mcpUrl(), admin, "admin");
      tool(adminClient, "gram_create", new JsonObject().put("path", "shared/notes.gram").putNull("base_revision")
          .put("title", "Notes").put("content", "shared"));
      tool(adminClient, "gram_create", new JsonObject().put("path", "project-a/plan.gram").putNull("base_revision")
          .put("title", "Plan").put("content", "plan"));

      Cli.Run status = Cli.run(dir, "status", "--url", server.baseUrl().toString(), "--token", planner);
      assertThat(status.exit()).as(status.toString()).isZero();
      assertThat(status.out()).contains("auth", "agents: each agent's own token");

      // An agent added while the server runs: its token works without a restart.
      String reviewer = add(file, "reviewer", "shared=read", "project-a=read");
      eventually("the new agent's token works", answers(server, reviewer, 200));

      // Its subscription to the whole vault hears of shared...
      AgentClient watcher = AgentClient.legacyHttp(server.mcpUrl(), reviewer, "watcher");
      watcher.subscribe(java.util.List.of("gram://"));
      JsonObject heard = null;
      for (int i = 0; i < 20 && heard == null; i++) {
        touch(adminClient, "shared/notes.gram", "probe-" + i);
        heard = watcher.next("notifications/resources/updated", Duration.ofMillis(500));
      }
      assertThat(heard).as("the watcher hears of shared").isNotNull();

      // ...until an operator edits the file by hand and takes shared away: the next change is not told.
      JsonObject json = new JsonObject(Files.readString(file));
      json.getJsonArray("agents").forEach(a -> {
        JsonObject agent = (JsonObject) a;
        if (agent.getString("name").equals("reviewer")) {
          agent.put("approvals", new JsonObject().put("project-a", "read"));
        }
      });
      Files.writeString(file, json.encodePrettily());
      eventually("the edited approvals apply", () -> tool(watcher, "gram_list", new JsonObject().put("path", "shared"))
          .containsKey("error"));
      watcher.notifications.clear();
      touch(adminClient, "shared/notes.gram", "after-edit");
      touch(adminClient, "project-a/plan.gram", "after-edit");
      JsonObject told = watcher.next("notifications/resources/updated", Duration.ofSeconds(10));
      assertThat(told).as("the change to project-a is told").isNotNull();
      assertThat(told.encode()).contains("project-a/plan.gram").doesNotContain("shared/notes.gram");

      // Revoked: the token is refused, and nothing more reaches its sessions.
      Cli.Run revoke = Cli.run(dir, "agents", "revoke", "planner", "--agents", file.toString());
      assertThat(revoke.exit()).as(revoke.toString()).isZero();
      eventually("the revoked token is refused", answers(server, planner, 401));
      assertThat(status(server, reviewer)).isEqualTo(200);
      assertThat(Cli.run(dir, "agents", "list", "--agents", file.toString()).out()).doesNotContain("planner");

      // A file broken while the server runs is ignored: the agents in force stay.
      Files.writeString(file, "{not json");
      eventually("the broken file is noticed", () -> server.stderr().contains("agents read before stay in force"));
      assertThat(status(server, reviewer)).isEqualTo(200);
    }
  }

  static void touch(AgentClient admin, String path, String requestId) {
    JsonObject doc = tool(admin, "gram_list", new JsonObject().put("path", path)).getJsonObject("doc");
    JsonObject patched = tool(admin, "gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", path + "-" + requestId)
        .put("operations", new io.vertx.core.json.JsonArray().add(new JsonObject().put("op", "set").put("entity", "doc")
            .put("key", "d").put("value", requestId))));
    assertThat(patched.containsKey("error")).as(patched.encode()).isFalse();
  }

  @Test
  void aBadAgentsFileStopsTheStartWithOneLine() throws Exception {
    Path file = dir.resolve("agents.json");
    for (String bad : new String[] {
        "{not json",
        "{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"short\", \"approvals\": {}}]}",
        "{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + "0".repeat(64) + "\", \"approvals\": {\"../up\": \"write\"}}]}",
        "{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + "0".repeat(64) + "\", \"approvals\": {\"x\": \"admin\"}}]}",
        "{\"agent\": []}"}) {
      Files.writeString(file, bad);
      Cli.Run r = Cli.run(dir, "--vault", dir.resolve("vault").toString(), "--no-stdio", "--port", "0",
          "--no-semantic", "--agents", file.toString());
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      java.util.List<String> lines = r.err().lines().filter(l -> l.startsWith("gram-mcp: could not start")).toList();
      assertThat(lines).as(r.toString()).hasSize(1);
      assertThat(lines.get(0)).contains("the agents file " + file);
      assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }
  }
}
