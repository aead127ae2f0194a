package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.json.JsonObject;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput and latency of {@code tools/call gram_capabilities} against the built jar: over
 * Streamable HTTP (modern, stateless requests) with 1, 16 and 64 concurrent clients, and over
 * stdio with one client calling sequentially. Every loop is bounded in time; traffic goes to
 * 127.0.0.1 only. Not a test: run with
 *
 * <pre>mvn -B -Pbench -DskipTests package exec:exec -Dbench.main=dev.gram.bench.TransportBench</pre>
 *
 * Options (system properties): {@code bench.seconds} (measured seconds per case, default 5),
 * {@code bench.warmup} (seconds, default 3), {@code bench.clients} (default {@code 1,16,64}).
 */
public final class TransportBench {
  private TransportBench() {}

  record Result(String name, long calls, double seconds, long[] latenciesNanos, long errors) {
    String line() {
      long[] l = latenciesNanos.clone();
      Arrays.sort(l);
      return String.format(Locale.ROOT, "| %-28s | %9.0f | %8.3f | %8.3f | %8.3f | %6d |",
          name, calls / seconds, pct(l, 0.50), pct(l, 0.99), pct(l, 0.999), errors);
    }

    private static double pct(long[] sorted, double p) {
      if (sorted.length == 0) {
        return Double.NaN;
      }
      int i = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
      return sorted[Math.max(0, i)] / 1e6;
    }
  }

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("bench.seconds", 5);
    int warmup = Integer.getInteger("bench.warmup", 3);
    int[] levels = Arrays.stream(System.getProperty("bench.clients", "1,16,64").split(","))
        .mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    Path dir = Files.createTempDirectory("gram-bench");
    List<Result> results = new ArrayList<>();
    try (ServerProcess server = ServerProcess.start(dir)) {
      for (int clients : levels) {
        http(server.mcpUrl(), clients, Duration.ofSeconds(warmup));
        results.add(http(server.mcpUrl(), clients, Duration.ofSeconds(seconds)));
      }
      StdioClient stdio = new StdioClient(server.stdin(), server.stdout(), false);
      stdio.initialize("bench", "2025-11-25");
      stdio(stdio, Duration.ofSeconds(warmup));
      results.add(stdio(stdio, Duration.ofSeconds(seconds)));
      server.stop();
    } finally {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    System.err.println();
    System.err.println("gram_capabilities, " + Runtime.getRuntime().availableProcessors()
        + " cores shared by client and server, " + seconds + " s per case after " + warmup + " s warm-up");
    System.err.println("| case                         | calls/s   | p50 ms   | p99 ms   | p99.9 ms | errors |");
    System.err.println("|------------------------------|-----------|----------|----------|----------|--------|");
    for (Result r : results) {
      System.err.println(r.line());
    }
  }

  private static final String BODY = new JsonObject()
      .put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
      .put("params", new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject())
          .put("_meta", StdioClient.modernMeta("bench")))
      .encode();

  /**
   * {@code clients} logical clients, each sending its next call when the previous answer arrived,
   * over one keep-alive connection each. The load generator is a Vert.x HTTP client, so the cost
   * measured is the server's and the wire's rather than a blocking client's thread hand-offs.
   */
  static Result http(URI mcp, int clients, Duration duration) throws InterruptedException {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    HttpClient client = vertx.createHttpClient(
        new HttpClientOptions().setKeepAlive(true).setDefaultHost(mcp.getHost()).setDefaultPort(mcp.getPort()),
        new PoolOptions().setHttp1MaxSize(clients));
    Buffer body = Buffer.buffer(BODY);
    RequestOptions options = new RequestOptions()
        .setMethod(HttpMethod.POST)
        .setURI(mcp.getPath())
        .putHeader("Content-Type", "application/json")
        .putHeader("Accept", "application/json, text/event-stream")
        .putHeader("MCP-Protocol-Version", "2026-07-28")
        .putHeader("Mcp-Method", "tools/call")
        .putHeader("Mcp-Name", "gram_capabilities");
    AtomicBoolean stop = new AtomicBoolean();
    long[] latencies = new long[4_000_000];
    AtomicInteger n = new AtomicInteger();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(clients);
    long start = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      vertx.runOnContext(v -> loop(client, options, body, stop, latencies, n, errors, done));
    }
    Thread.sleep(duration.toMillis());
    stop.set(true);
    done.await();
    double secs = (System.nanoTime() - start) / 1e9;
    vertx.close();
    int total = Math.min(n.get(), latencies.length);
    return new Result("Streamable HTTP, " + clients + " client" + (clients == 1 ? "" : "s"), total, secs,
        Arrays.copyOf(latencies, total), errors.get());
  }

  private static void loop(HttpClient client, RequestOptions options, Buffer body, AtomicBoolean stop,
      long[] latencies, AtomicInteger n, AtomicLong errors, CountDownLatch done) {
    if (stop.get()) {
      done.countDown();
      return;
    }
    long t0 = System.nanoTime();
    client.request(options)
        .compose(req -> req.send(body))
        .compose(resp -> resp.statusCode() == 200 ? resp.body() : Future.failedFuture("status " + resp.statusCode()))
        .onComplete(ar -> {
          long t = System.nanoTime() - t0;
          if (ar.failed() || !ar.result().toString().contains("\"budget_bytes\":16384")) {
            errors.incrementAndGet();
          }
          int i = n.getAndIncrement();
          if (i < latencies.length) {
            latencies[i] = t;
          }
          loop(client, options, body, stop, latencies, n, errors, done);
        });
  }

  static Result stdio(StdioClient stdio, Duration duration) {
    JsonObject params = new JsonObject().put("name", "gram_capabilities").put("arguments", new JsonObject());
    long[] lat = new long[2_000_000];
    int n = 0;
    long errors = 0;
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    while (System.nanoTime() < end && n < lat.length) {
      long t0 = System.nanoTime();
      JsonObject answer = stdio.request("tools/call", params);
      lat[n++] = System.nanoTime() - t0;
      if (!answer.containsKey("result")) {
        errors++;
      }
    }
    double secs = (System.nanoTime() - start) / 1e9;
    return new Result("stdio, sequential", n, secs, Arrays.copyOf(lat, n), errors);
  }
}
