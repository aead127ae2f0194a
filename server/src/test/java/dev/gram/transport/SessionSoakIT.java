package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.ServerProcess;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak only ({@code -Psoak}, which sets {@code gram.soak=true}): 20,000 legacy HTTP sessions
 * opened and closed, then 1,000 sessions held at once for {@code gram.soak.minutes} (10) with a
 * call on each every two seconds. Prints errors, p50/p99 and the server's resident memory before
 * and after, and requires no errors and every session closed again.
 */
@EnabledIfSystemProperty(named = "gram.soak", matches = "true")
class SessionSoakIT {
  @TempDir Path dir;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .executor(Executors.newFixedThreadPool(8)).build();

  @Test
  void sessionsOpenCloseAndHoldWithoutErrorsOrLeaks() throws Exception {
    int cycles = Integer.getInteger("gram.soak.sessionCycles", 20_000);
    int held = Integer.getInteger("gram.soak.sessions", 1_000);
    int minutes = Integer.getInteger("gram.soak.minutes", 10);
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome", "--no-stdio")) {
      URI mcp = server.mcpUrl();
      long rssStart = rssKb(server.pid());
      ExecutorService pool = Executors.newFixedThreadPool(16);
      AtomicInteger errors = new AtomicInteger();
      AtomicInteger next = new AtomicInteger();
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        work.add(pool.submit(() -> {
          while (next.getAndIncrement() < cycles) {
            try {
              String session = open(mcp);
              if (!closed(mcp, session)) {
                errors.incrementAndGet();
              }
            } catch (Exception e) {
              errors.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : work) {
        f.get();
      }
      long rssAfterCycles = rssKb(server.pid());
      System.err.printf(Locale.ROOT, "soak: %d session open/close cycles, %d errors, RSS %d -> %d MiB%n",
          cycles, errors.get(), rssStart / 1024, rssAfterCycles / 1024);
      assertThat(errors.get()).isZero();

      List<String> sessions = new ArrayList<>();
      for (int i = 0; i < held; i++) {
        sessions.add(open(mcp));
      }
      long[] latencies = new long[held * minutes * 60];
      AtomicInteger calls = new AtomicInteger();
      AtomicInteger callErrors = new AtomicInteger();
      long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
      work.clear();
      for (int t = 0; t < 16; t++) {
        int lane = t;
        work.add(pool.submit(() -> {
          while (System.nanoTime() < end) {
            long round = System.nanoTime();
            for (int i = lane; i < sessions.size(); i += 16) {
              long t0 = System.nanoTime();
              try {
                HttpResponse<String> r = post(mcp, sessions.get(i), new JsonObject().put("jsonrpc", "2.0").put("id", i)
                    .put("method", "tools/call").put("params", new JsonObject().put("name", "gram_capabilities")
                        .put("arguments", new JsonObject())));
                if (r.statusCode() != 200 || !r.body().contains("\"result\"")) {
                  callErrors.incrementAndGet();
                }
              } catch (Exception e) {
                callErrors.incrementAndGet();
              }
              int n = calls.getAndIncrement();
              if (n < latencies.length) {
                latencies[n] = System.nanoTime() - t0;
              }
            }
            long sleep = TimeUnit.SECONDS.toNanos(2) - (System.nanoTime() - round);
            if (sleep > 0) {
              TimeUnit.NANOSECONDS.sleep(sleep);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : work) {
        f.get();
      }
      long rssHeld = rssKb(server.pid());
      for (String s : sessions) {
        if (!closed(mcp, s)) {
          callErrors.incrementAndGet();
        }
      }
      pool.shutdown();
      int n = Math.min(calls.get(), latencies.length);
      long[] sorted = Arrays.copyOf(latencies, n);
      Arrays.sort(sorted);
      String line = String.format(Locale.ROOT,
          "soak: %d sessions held %d min, %d calls, %d errors, p50 %.2f ms, p99 %.2f ms, RSS %d MiB held, %d MiB after closing",
          held, minutes, calls.get(), callErrors.get(), sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6,
          rssHeld / 1024, rssKb(server.pid()) / 1024);
      System.err.println(line);
      Files.writeString(Path.of(System.getProperty("gram.soak.report", "target/soak-sessions.txt")),
          String.format(Locale.ROOT, "soak: %d session open/close cycles, %d errors, RSS %d -> %d MiB%n%s%n",
              cycles, errors.get(), rssStart / 1024, rssAfterCycles / 1024, line));
      assertThat(callErrors.get()).isZero();
    }
  }

  private String open(URI mcp) throws Exception {
    HttpResponse<String> r = post(mcp, null, new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "soak").put("version", "1"))));
    String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new IllegalStateException(r.body()));
    post(mcp, session, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    return session;
  }

  /**
   * DELETE answers 204; the session must then be gone: a call on it answers 404, which tells a
   * client to start a new session.
   */
  private boolean closed(URI mcp, String session) throws Exception {
    int deleted = http.send(HttpRequest.newBuilder(mcp).header("Mcp-Session-Id", session).DELETE()
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    int after = post(mcp, session, new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping")).statusCode();
    return deleted / 100 == 2 && after == 404;
  }

  private HttpResponse<String> post(URI mcp, String session, JsonObject body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return http.send(b.POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }

  static long rssKb(long pid) throws Exception {
    for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }
}
