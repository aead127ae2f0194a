package dev.gram.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gram.access.Access;
import dev.gram.access.Approval;
import dev.gram.access.Approvals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scopes as approvals, and the agents file's format and checks. */
class ScopesAndAgentsFileTest {
  @TempDir Path dir;

  @Test
  void scopesGrantWhatTheySay() {
    Approvals a = Scopes.approvals(Scopes.of(new JsonObject().put("scope",
        "openid gram:read:shared gram:write:project-a gram:write:notes%20and%20more gram:read:../up gram:admin")));
    assertThat(a.access("shared/x.gram")).isEqualTo(Access.READ);
    assertThat(a.access("project-a/x.gram")).isEqualTo(Access.WRITE);
    assertThat(a.access("notes and more/x.gram")).isEqualTo(Access.WRITE);
    assertThat(a.access("up/x.gram")).isEqualTo(Access.NONE);
    assertThat(Scopes.approvals(Scopes.of(new JsonObject().put("scp", new JsonArray().add("gram:write")))).everything()).isTrue();
    assertThat(Scopes.approvals(Scopes.of(new JsonObject().put("scope", "gram:read"))).access("x")).isEqualTo(Access.READ);
    assertThat(Scopes.approvals(Scopes.of(new JsonObject().put("scope", "openid profile"))).none()).isTrue();
    assertThat(Scopes.approvals(Scopes.of(new JsonObject())).none()).isTrue();
  }

  @Test
  void theMetadataUrlPutsTheWellKnownPathBeforeTheResourcesPath() {
    assertThat(new OAuthSettings("i", "https://gram.example.com/mcp", List.of()).metadataUrl())
        .isEqualTo("https://gram.example.com/.well-known/oauth-protected-resource/mcp");
    assertThat(new OAuthSettings("i", "https://gram.example.com:8443", List.of()).metadataUrl())
        .isEqualTo("https://gram.example.com:8443/.well-known/oauth-protected-resource");
    assertThat(OAuthResource.metadataUrls("https://id.example.com/realms/gram")).containsExactly(
        "https://id.example.com/.well-known/oauth-authorization-server/realms/gram",
        "https://id.example.com/.well-known/openid-configuration/realms/gram",
        "https://id.example.com/realms/gram/.well-known/openid-configuration");
  }

  @Test
  void anAgentsFileRoundTripsAndKeepsOnlyDigests() throws Exception {
    String token = AgentsFile.newToken();
    assertThat(token).startsWith("gram_").hasSize(5 + 43);
    AgentsFile file = AgentsFile.empty().with(new AgentsFile.Agent("planner", AgentsFile.digest(token),
        Approvals.of(List.of(Approval.parse("project-a=write"), Approval.parse("*=read"))), "2026-07-30T09:00:00Z"));
    Path p = dir.resolve("agents.json");
    file.write(p);
    String text = java.nio.file.Files.readString(p);
    assertThat(text).doesNotContain(token).contains(AgentsFile.digest(token)).contains("\"*\" : \"read\"");
    AgentsFile back = AgentsFile.read(p);
    assertThat(back.agent("planner").approvals()).isEqualTo(file.agent("planner").approvals());
    assertThat(AgentDirectory.load(p).match(token).name()).isEqualTo("planner");
    assertThat(AgentDirectory.load(p).match(AgentsFile.newToken())).isNull();
    assertThat(back.without("planner").agents()).isEmpty();
    assertThatThrownBy(() -> back.without("nobody")).hasMessageContaining("no agent is named nobody");
  }

  @Test
  void everyFaultOfAFileIsOneSentenceNamingIt() {
    String digest = "a".repeat(64);
    for (String[] c : new String[][] {
        {"[]", "is not a JSON object"},
        {"{\"agents\": {}}", "needs \"agents\""},
        {"{\"agents\": [], \"extra\": 1}", "unknown key \"extra\""},
        {"{\"agents\": [{\"name\": \"a b\", \"token_sha256\": \"" + digest + "\", \"approvals\": {}}]}", "needs a name"},
        {"{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + digest + "\", \"approvals\": {}},"
            + "{\"name\": \"a\", \"token_sha256\": \"" + "b".repeat(64) + "\", \"approvals\": {}}]}", "agent a is listed twice"},
        {"{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + digest + "\", \"approvals\": {}},"
            + "{\"name\": \"b\", \"token_sha256\": \"" + digest + "\", \"approvals\": {}}]}", "same token as another"},
        {"{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + digest + "\", \"approvals\": {\"x\": \"all\"}}]}", "read or write"},
        {"{\"agents\": [{\"name\": \"a\", \"token_sha256\": \"" + digest + "\", \"approve\": {}}]}", "unknown key \"approve\""}}) {
      assertThatThrownBy(() -> AgentsFile.parse(Path.of("agents.json"), c[0].getBytes(StandardCharsets.UTF_8)))
          .as(c[0]).isInstanceOf(AgentsFile.BadFile.class)
          .hasMessageStartingWith("the agents file agents.json").hasMessageContaining(c[1])
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
  }
}
