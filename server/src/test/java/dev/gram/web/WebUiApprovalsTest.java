package dev.gram.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.access.Approval;
import dev.gram.access.Approvals;
import dev.gram.auth.AgentsFile;
import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.StoreWrites;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With an agents file, a person is an agent with a name: the web view takes the agent's token at
 * log-in, records the person's edits under the agent's name, and shows and changes only what the
 * agent's approvals allow, the same as {@code /mcp} would for that token.
 */
class WebUiApprovalsTest {
  @TempDir static Path dir;
  static GramServer server;
  static String base;
  static String aliceToken;
  static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  static void start() throws Exception {
    aliceToken = AgentsFile.newToken();
    String bobToken = AgentsFile.newToken();
    Path agents = dir.resolve("agents.json");
    AgentsFile.empty()
        .with(new AgentsFile.Agent("alice", AgentsFile.digest(aliceToken),
            Approvals.of(List.of(Approval.of("alpha", "write"), Approval.of("shared", "read"))), AgentsFile.now()))
        .with(new AgentsFile.Agent("bob", AgentsFile.digest(bobToken),
            Approvals.of(List.of(Approval.of("beta", "write"))), AgentsFile.now()))
        .write(agents);
    ServerConfig config = ServerConfig.parse(new String[] {
        "--vault", dir.resolve("vault").toString(), "--index", dir.resolve("index").toString(),
        "--no-stdio", "--port", "0", "--no-semantic", "--no-welcome", "--agents", agents.toString()}, Map.of());
    server = GramServer.start(config, InputStream.nullInputStream(), new ByteArrayOutputStream())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    server.services().vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    StoreWrites store = new StoreWrites(server.services().vault());
    store.create("alpha/a.gram", "Alpha plan", "Alpha words.");
    store.create("beta/b.gram", "Beta secret", "Wombatsecretword lives here.");
    store.create("shared/s.gram", "Shared notes", "Everyone reads this.");
    base = "http://127.0.0.1:" + server.httpPort();
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return HTTP.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static String form(Map<String, String> fields) {
    StringBuilder sb = new StringBuilder();
    fields.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return sb.toString();
  }

  /** Logs in with alice's token; returns her session cookie. */
  static String loginAsAlice() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/ui/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("name", "someone-else", "token", aliceToken)))));
    assertThat(r.statusCode()).as("log-in with an agent's token").isEqualTo(303);
    String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
    return cookie.substring(0, cookie.indexOf(';'));
  }

  @Test
  void aPersonSeesOnlyWhatTheirAgentsApprovalsAllow() throws Exception {
    String cookie = loginAsAlice();
    HttpResponse<String> home = send(HttpRequest.newBuilder(URI.create(base + "/ui/")).header("Cookie", cookie));
    assertThat(home.statusCode()).isEqualTo(200);
    assertThat(home.body()).contains("person:alice").doesNotContain("someone-else");
    HttpResponse<String> docs = send(HttpRequest.newBuilder(URI.create(base + "/ui/?part=docs")).header("Cookie", cookie));
    assertThat(docs.body()).doesNotContain("beta");
    assertThat(send(HttpRequest.newBuilder(URI.create(base + "/ui/doc/alpha/a.gram")).header("Cookie", cookie))
        .statusCode()).isEqualTo(200);
    HttpResponse<String> hidden = send(HttpRequest.newBuilder(URI.create(base + "/ui/doc/beta/b.gram")).header("Cookie", cookie));
    assertThat(hidden.statusCode()).isEqualTo(404);
    assertThat(hidden.body()).doesNotContain("Wombatsecretword").doesNotContain("Beta secret");
    HttpResponse<String> search = send(HttpRequest.newBuilder(URI.create(base + "/ui/search?q=Wombatsecretword"))
        .header("Cookie", cookie));
    assertThat(search.body()).doesNotContain("beta/b.gram").doesNotContain("Beta secret");
  }

  @Test
  void aPersonsEditsCarryTheAgentsNameAndStopAtReadOnlyApprovals() throws Exception {
    String cookie = loginAsAlice();
    DocSnapshot shared = server.services().vault().peek("shared/s.gram");
    HttpResponse<String> refused = send(HttpRequest.newBuilder(URI.create(base + "/ui/edit/shared/s.gram"))
        .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("rev", String.valueOf(shared.rev()),
            "hash", shared.shortHash(), "op", "note", "text", "Not allowed")))));
    assertThat(refused.statusCode()).isGreaterThanOrEqualTo(400);
    assertThat(server.services().vault().peek("shared/s.gram").rev()).as("nothing written").isEqualTo(shared.rev());

    DocSnapshot alpha = server.services().vault().peek("alpha/a.gram");
    HttpResponse<String> edited = send(HttpRequest.newBuilder(URI.create(base + "/ui/edit/alpha/a.gram"))
        .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("rev", String.valueOf(alpha.rev()),
            "hash", alpha.shortHash(), "op", "note", "text", "Alice was here")))));
    assertThat(edited.statusCode()).isLessThan(400);
    DocSnapshot after = server.services().vault().peek("alpha/a.gram");
    assertThat(after.rev()).isEqualTo(alpha.rev() + 1);
    assertThat(after.head().by()).as("by is the agent the token names").isEqualTo("person:alice");
  }
}
