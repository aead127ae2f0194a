package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.McpClients;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent runtime starts the jar over stdio with the default flags while something else (a shared
 * server, another sidecar) already holds the HTTP port: the sidecar must still serve stdio.
 */
class SidecarIT {
  @TempDir Path dir;

  @Test
  void stdioStillServesWhenTheHttpPortIsTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Queue<String> stderr = new ConcurrentLinkedQueue<>();
      McpSyncClient client =
          McpClients.stdio(dir, "sidecar", stderr, "--http", "--port", String.valueOf(taken.getLocalPort()));
      try {
        client.initialize();
        McpSchema.CallToolResult r =
            client.callTool(new McpSchema.CallToolRequest("gram_capabilities", Map.of()));
        assertThat(r.isError()).isNotEqualTo(Boolean.TRUE);
        // stderr is read by another thread: the line may trail the answer on a busy machine.
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (!String.join("\n", stderr).contains("HTTP is off") && System.nanoTime() < until) {
          java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
        }
        assertThat(String.join("\n", stderr)).contains("HTTP is off");
      } finally {
        client.closeGracefully();
      }
    }
  }
}
