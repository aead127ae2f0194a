package dev.gram.bench;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StdioClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.parsetools.RecordParser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code push} section: how soon another client hears of a write. One writer patches over
 * Streamable HTTP; the time from its receipt to the {@code notifications/resources/updated} of
 * that revision at a subscriber, over stdio (a legacy subscription) and over HTTP (a 2026-07-28
 * {@code subscriptions/listen}); then 1,000 HTTP listeners on one document while 100 writes/s
 * land: delivery p50/p99 over all (listener, revision) pairs, the writer's p50 with and without
 * them, and the server's resident memory. A negative receipt → notification time means the
 * notification arrived before the receipt (the feed is told before the receipt goes back).
 */
final class PushBench {
  private PushBench() {}

  static void run(Path dir, Duration d) throws Exception {
    // The listeners' client and the writer's client each have event loops of their own: a writer
    // whose answers waited in the same loop as 100,000 listener events a second measured the
    // load generator, not the server.
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    Vertx writerVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try (ServerProcess server = ServerProcess.start(dir, "--no-semantic", "--no-welcome")) {
      McpHttp http = new McpHttp(writerVertx, server.mcpUrl(), 8, true);
      JsonObject doc = Bench.await(http.ok("gram_create", new JsonObject().put("path", "push/doc.gram")
          .put("base_revision", (Object) null).put("title", "Push").put("content", "# Push\n\nWatched."))).getJsonObject("doc");
      doc = stdio(server, http, doc, d);
      doc = httpListener(vertx, server, http, doc, d);
      fanOut(vertx, server, http, doc, d);
      server.stop();
    } finally {
      vertx.close();
      writerVertx.close();
    }
  }

  /** Receipt → notification at a stdio client subscribed to the document (legacy era). */
  private static JsonObject stdio(ServerProcess server, McpHttp http, JsonObject doc, Duration d) throws Exception {
    StdioClient stdio = server.stdio();
    stdio.initialize("push-stdio", "2025-11-25");
    stdio.request("resources/subscribe", new JsonObject().put("uri", "gram://push/doc.gram"));
    List<Long> receiptToNote = new ArrayList<>();
    List<Long> sendToNote = new ArrayList<>();
    long end = System.nanoTime() + d.toNanos();
    int i = 0;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      doc = Bench.await(http.ok("gram_patch", Bench.patch(doc, "ps-" + i, "ps" + i))).getJsonObject("doc");
      long receipt = System.nanoTime();
      int rev = doc.getInteger("rev");
      JsonObject n;
      do {
        n = stdio.nextNotification(Duration.ofSeconds(10));
      } while (n != null && n.getJsonObject("params").getJsonObject("_meta", new JsonObject()).getInteger("rev", -1) < rev);
      long noted = System.nanoTime();
      // The notification may have been read before the receipt: its arrival is then bounded by now.
      receiptToNote.add(noted - receipt);
      sendToNote.add(noted - t0);
      i++;
    }
    report("push.stdio", "receipt → notification, stdio subscriber", receiptToNote, sendToNote);
    return doc;
  }

  /** Receipt → notification at a 2026-07-28 listener over HTTP. */
  private static JsonObject httpListener(Vertx vertx, ServerProcess server, McpHttp http, JsonObject doc, Duration d)
      throws Exception {
    Listeners one = new Listeners(vertx, server.mcpUrl(), 1);
    Map<Integer, Long> receipts = new ConcurrentHashMap<>();
    List<Long> sendToNote = new ArrayList<>();
    long end = System.nanoTime() + d.toNanos();
    int i = 0;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      doc = Bench.await(http.ok("gram_patch", Bench.patch(doc, "ph-" + i, "ph" + i))).getJsonObject("doc");
      long receipt = System.nanoTime();
      int rev = doc.getInteger("rev");
      receipts.put(rev, receipt);
      long noted = one.awaitRev(rev, Duration.ofSeconds(10));
      sendToNote.add(noted - t0);
      i++;
    }
    List<Long> receiptToNote = new ArrayList<>();
    one.arrivals.forEach((key, at) -> {
      Long r = receipts.get(key.rev);
      if (r != null) {
        receiptToNote.add(at - r);
      }
    });
    one.close();
    report("push.http", "receipt → notification, HTTP listener", receiptToNote, sendToNote);
    return doc;
  }

  /** 1,000 listeners on one document, 100 writes/s. */
  private static void fanOut(Vertx vertx, ServerProcess server, McpHttp http, JsonObject doc, Duration d) throws Exception {
    int listeners = Integer.getInteger("bench.pushListeners", 1000);
    int rate = Integer.getInteger("bench.pushRate", 100);
    Map<Double, Double> m0 = patchBuckets(server.mcpUrl());
    Writes without = paced(http, doc, rate, d, "pw");
    Map<Double, Double> m1 = patchBuckets(server.mcpUrl());
    doc = without.doc;
    long rssBefore = Bench.rssKb(server.pid());
    Listeners many = new Listeners(vertx, server.mcpUrl(), listeners);
    long rssListening = Bench.rssKb(server.pid());
    Map<Double, Double> m2 = patchBuckets(server.mcpUrl());
    long serverCpu0 = Bench.cpuTicks(server.pid());
    long benchCpu0 = Bench.cpuTicks(ProcessHandle.current().pid());
    long phase0 = System.nanoTime();
    Writes with = paced(http, doc, rate, d, "pf");
    double phaseS = (System.nanoTime() - phase0) / 1e9;
    double serverCores = (Bench.cpuTicks(server.pid()) - serverCpu0) / 100.0 / phaseS;
    double benchCores = (Bench.cpuTicks(ProcessHandle.current().pid()) - benchCpu0) / 100.0 / phaseS;
    Map<Double, Double> m3 = patchBuckets(server.mcpUrl());
    // Let the last deliveries land before counting.
    Thread.sleep(1000);
    long rssAfter = Bench.rssKb(server.pid());
    // Coalescing may drop a listener's older revisions under load, never its newest: each must
    // hear the writer's last revision, however late.
    int last = with.doc.getInteger("rev");
    long lastSince = System.nanoTime();
    int heardLast = many.heard(last, Duration.ofSeconds(30));
    double lastWaitS = (System.nanoTime() - lastSince) / 1e9;
    List<Long> delivery = new ArrayList<>();
    List<Long> fromSend = new ArrayList<>();
    int expected = 0;
    for (Map.Entry<Integer, Long> r : with.receipts.entrySet()) {
      expected += listeners;
      for (int l = 0; l < listeners; l++) {
        Long at = many.arrivals.get(new Key(l, r.getKey()));
        if (at != null) {
          delivery.add(at - r.getValue());
          fromSend.add(at - with.sent.get(r.getKey()));
        }
      }
    }
    Stats sendStats = stats("request sent → notification", fromSend);
    many.close();
    Stats del = stats("delivery", delivery);
    Stats w0 = stats("writer alone", without.latencies);
    Stats w1 = stats("writer with listeners", with.latencies);
    Bench.put("push.fanOut", Map.of(
        "listeners", listeners, "writesPerSecond", rate,
        "deliveryP50Ms", del.p50(), "deliveryP99Ms", del.p99(),
        "delivered", delivery.size(), "expected", expected, "heardLastRevision", heardLast,
        "rssKb", Map.of("before", rssBefore, "listening", rssListening, "after", rssAfter)));
    Bench.put("push.writer", Map.of(
        "p50MsWithout", w0.p50(), "p50MsWith", w1.p50(),
        "p99MsWithout", w0.p99(), "p99MsWith", w1.p99()));
    Bench.put("push.fanOutFromRequest", Map.of("p50Ms", sendStats.p50(), "p99Ms", sendStats.p99()));
    Bench.row(String.format(Locale.ROOT, "| push: %d listeners on 1 doc, %d writes/s: delivery | %d of %d | %s | %s | receipt → notification over all (listener, revision) pairs; request sent → notification p50 %s, p99 %s |",
        listeners, rate, delivery.size(), expected, Stats.ms(del.p50()), Stats.ms(del.p99()),
        Stats.ms(sendStats.p50()), Stats.ms(sendStats.p99())));
    Bench.row(String.format(Locale.ROOT, "| push: listeners that heard the last revision (%d) | %d of %d | | | %.1f s after the 1 s wait |",
        last, heardLast, listeners, lastWaitS));
    Bench.row(String.format(Locale.ROOT, "| push: writer with %d listeners / alone | %.0f/s | %s / %s | %s / %s | gram_patch, paced |",
        listeners, with.latencies.size() / (double) d.toSeconds(), Stats.ms(w1.p50()), Stats.ms(w0.p50()),
        Stats.ms(w1.p99()), Stats.ms(w0.p99())));
    // The server's own timer (from validated arguments to the answer): what of the writer's
    // latency is the call itself, and what is waiting around it (transport, CPU).
    Bench.row(String.format(Locale.ROOT, "| push: gram_patch inside the server, with %d listeners / alone | | %s / %s | | p50 from /metrics' histogram (bucket bound) |",
        listeners, bucketP50(m2, m3), bucketP50(m0, m1)));
    Bench.row(String.format(Locale.ROOT, "| push: CPU while the listeners hear %d writes/s: server / this benchmark (listeners and writer) | | %.2f / %.2f cores | | of %d |",
        rate, serverCores, benchCores, Runtime.getRuntime().availableProcessors()));
    Bench.row(String.format(Locale.ROOT, "| push: server RSS, idle / %d listening / after writes | %d / %d / %d MiB | | | |",
        listeners, rssBefore / 1024, rssListening / 1024, rssAfter / 1024));
  }

  /** gram_patch's latency histogram in /metrics: upper bound in ms → cumulative count. */
  private static Map<Double, Double> patchBuckets(URI mcp) throws Exception {
    String body = dev.gram.testing.Http.client().send(
        java.net.http.HttpRequest.newBuilder(mcp.resolve("/metrics")).timeout(Duration.ofSeconds(30)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    Map<Double, Double> out = new java.util.TreeMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "gram_tool_latency_seconds_bucket\\{[^}]*tool=\"gram_patch\"[^}]*le=\"([^\"]+)\"[^}]*\\} ([0-9.E+]+)").matcher(body);
    while (m.find()) {
      if (!m.group(1).equals("+Inf")) {
        out.put(Double.parseDouble(m.group(1)) * 1000, Double.parseDouble(m.group(2)));
      }
    }
    return out;
  }

  /** The first bucket bound under which half the calls between two scrapes fell, in ms. */
  private static String bucketP50(Map<Double, Double> before, Map<Double, Double> after) {
    double total = 0;
    for (double v : after.values()) {
      total = Math.max(total, v);
    }
    double base = 0;
    for (double v : before.values()) {
      base = Math.max(base, v);
    }
    double half = (total - base) / 2;
    for (Map.Entry<Double, Double> e : after.entrySet()) {
      if (e.getValue() - before.getOrDefault(e.getKey(), 0.0) >= half && half > 0) {
        return Stats.ms(e.getKey());
      }
    }
    return "?";
  }

  private record Writes(JsonObject doc, List<Long> latencies, Map<Integer, Long> receipts, Map<Integer, Long> sent) {}

  /** One writer at {@code rate} patches a second (each waits for the last: CAS). */
  private static Writes paced(McpHttp http, JsonObject doc, int rate, Duration d, String tag) throws Exception {
    List<Long> lat = new ArrayList<>();
    Map<Integer, Long> receipts = new ConcurrentHashMap<>();
    Map<Integer, Long> sent = new ConcurrentHashMap<>();
    long period = 1_000_000_000L / rate;
    long start = System.nanoTime();
    long end = start + d.toNanos();
    int i = 0;
    for (long next = start; next < end; next += period) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      long t0 = System.nanoTime();
      doc = Bench.await(http.ok("gram_patch", Bench.patch(doc, tag + "-" + i, tag + i))).getJsonObject("doc");
      long t1 = System.nanoTime();
      lat.add(t1 - t0);
      receipts.put(doc.getInteger("rev"), t1);
      sent.put(doc.getInteger("rev"), t0);
      i++;
    }
    return new Writes(doc, lat, receipts, sent);
  }

  private static void report(String key, String name, List<Long> receiptToNote, List<Long> sendToNote) {
    Stats r = stats(name, receiptToNote);
    Stats s = stats(name, sendToNote);
    Bench.put(key, Map.of("receiptToNotificationP50Ms", r.p50(), "receiptToNotificationP99Ms", r.p99(),
        "requestToNotificationP50Ms", s.p50(), "requestToNotificationP99Ms", s.p99(), "samples", r.operations()));
    Bench.row(String.format(Locale.ROOT, "| push: %s | %d samples | %s | %s | request sent → notification: p50 %s, p99 %s |",
        name, r.operations(), Stats.ms(r.p50()), Stats.ms(r.p99()), Stats.ms(s.p50()), Stats.ms(s.p99())));
  }

  private static Stats stats(String name, List<Long> nanos) {
    long[] l = nanos.stream().mapToLong(Long::longValue).toArray();
    return new Stats(name, l.length, 1, l, 0, 0);
  }

  private record Key(int listener, int rev) {}

  /** The {@code "rev":n} of a notification's text. */
  static int revOf(String event) {
    int i = event.indexOf("\"rev\":") + 6;
    int end = i;
    while (end < event.length() && Character.isDigit(event.charAt(end))) {
      end++;
    }
    return Integer.parseInt(event, i, end, 10);
  }

  /** {@code n} 2026-07-28 listeners on the document over HTTP, recording when each revision arrives. */
  private static final class Listeners {
    final Map<Key, Long> arrivals = new ConcurrentHashMap<>();
    final HttpClient client;
    final int listeners;

    Listeners(Vertx vertx, URI mcp, int n) throws InterruptedException {
      listeners = n;
      client = vertx.createHttpClient(
          new HttpClientOptions().setKeepAlive(true).setDefaultHost(mcp.getHost()).setDefaultPort(mcp.getPort()),
          new PoolOptions().setHttp1MaxSize(n + 1));
      CountDownLatch acknowledged = new CountDownLatch(n);
      AtomicInteger failed = new AtomicInteger();
      for (int l = 0; l < n; l++) {
        int listener = l;
        JsonObject body = new JsonObject().put("jsonrpc", "2.0").put("id", "l" + l).put("method", "subscriptions/listen")
            .put("params", new JsonObject()
                .put("notifications", new JsonObject().put("resourceSubscriptions", new JsonArray().add("gram://push/doc.gram")))
                .put("_meta", StdioClient.modernMeta("push-listener")));
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setURI(mcp.getPath())
            .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json, text/event-stream")
            .putHeader("MCP-Protocol-Version", "2026-07-28").putHeader("Mcp-Method", "subscriptions/listen");
        client.request(options)
            .compose(req -> req.send(Buffer.buffer(body.encode())))
            .onFailure(e -> { failed.incrementAndGet(); acknowledged.countDown(); })
            .onSuccess(resp -> {
              // Only what the row needs is read from each event (the method and the revision):
              // parsing 100,000 events a second whole took a core from the server it measures.
              RecordParser lines = RecordParser.newDelimited("\n", line -> {
                long at = System.nanoTime();
                String s = line.toString();
                if (!s.startsWith("data: ")) {
                  return;
                }
                if (s.contains("\"notifications/resources/updated\"")) {
                  arrivals.put(new Key(listener, revOf(s)), at);
                } else if (s.contains("\"notifications/subscriptions/acknowledged\"")) {
                  acknowledged.countDown();
                }
              });
              resp.handler(lines);
            });
      }
      if (!acknowledged.await(60, TimeUnit.SECONDS) || failed.get() > 0) {
        throw new IllegalStateException((n - acknowledged.getCount()) + " of " + n + " listeners acknowledged, "
            + failed.get() + " failed");
      }
    }

    long awaitRev(int rev, Duration timeout) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      Key k = new Key(0, rev);
      while (System.nanoTime() < end) {
        Long at = arrivals.get(k);
        if (at != null) {
          return at;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(20_000);
      }
      throw new IllegalStateException("revision " + rev + " never arrived");
    }

    /** How many listeners heard revision {@code rev}, waiting up to {@code timeout} for all of them. */
    int heard(int rev, Duration timeout) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      int n = listeners;
      while (true) {
        int count = 0;
        for (int l = 0; l < n; l++) {
          if (arrivals.containsKey(new Key(l, rev))) {
            count++;
          }
        }
        if (count == n || System.nanoTime() > end) {
          return count;
        }
        Thread.sleep(100);
      }
    }

    void close() {
      Bench.await0(client.close());
    }
  }
}
