package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Http;
import dev.gram.testing.McpClients;
import dev.gram.testing.ServerProcess;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a bearer token configured, every HTTP request but /healthz must carry it. */
class TokenIT {
  @TempDir Path dir;

  @Test
  void requestsWithoutTheTokenAre401AndWithItSucceed() {
    try (ServerProcess server = ServerProcess.start(dir, "--token", "s3cret-token")) {
      Http http = new Http(server.mcpUrl());
      HttpResponse<String> none = http.modern("tools/list", new JsonObject()).send();
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(http.modern("tools/list", new JsonObject()).header("Authorization", "Bearer wrong").send().statusCode())
          .isEqualTo(401);
      assertThat(http.modern("tools/list", new JsonObject()).header("Authorization", "Bearer s3cret-token").send().statusCode())
          .isEqualTo(200);
      assertThat(Http.send(HttpRequest.newBuilder(server.sseUrl()).GET(), Map.of()).statusCode()).isEqualTo(401);
      assertThat(Http.send(HttpRequest.newBuilder(server.baseUrl().resolve("metrics")).GET(), Map.of()).statusCode()).isEqualTo(401);
      assertThat(Http.send(HttpRequest.newBuilder(server.baseUrl().resolve("healthz")).GET(), Map.of()).statusCode()).isEqualTo(200);

      McpSyncClient client = McpClients.build(
          HttpClientStreamableHttpTransport.builder(server.origin())
              .endpoint("/mcp")
              .httpRequestCustomizer((b, method, uri, body, ctx) -> b.header("Authorization", "Bearer s3cret-token"))
              .build(),
          "token-client");
      try {
        assertThat(client.initialize().serverInfo().name()).isEqualTo("gram-mcp");
        assertThat(client.listTools().tools()).hasSize(15);
      } finally {
        client.closeGracefully();
      }
      assertThat(server.stop()).isZero();
    }
  }
}
