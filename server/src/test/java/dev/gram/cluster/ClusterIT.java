package dev.gram.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.GramFile;
import dev.gram.format.GramParser;
import dev.gram.format.History;
import dev.gram.format.Revision;
import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import dev.gram.testing.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three server JVMs (small heaps) on loopback serving one vault as a cluster, driven by clients
 * over Streamable HTTP: what one node acknowledges every node reads at once, many writers spread
 * over the nodes lose no update, and SIGKILL of nodes under load loses no acknowledged write.
 */
class ClusterIT {
  /** Kill cycles in the default run; {@code -Dgram.cluster.killCycles=N} (the soak profile) runs more. */
  static final int DEFAULT_KILL_CYCLES = 10;
  private static final List<String> SMALL_JVM =
      List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");

  @TempDir Path dir;

  private final Map<String, ServerProcess> nodes = new ConcurrentHashMap<>();
  private final Map<String, Integer> clusterPorts = new HashMap<>();
  private final Map<URI, StatelessCalls> clients = new ConcurrentHashMap<>();

  @AfterEach
  void stopAll() {
    for (ServerProcess p : nodes.values()) {
      p.close();
    }
  }

  private void allocatePorts(String... names) {
    int[] ports = FreePorts.reserve(names.length);
    for (int i = 0; i < names.length; i++) {
      clusterPorts.put(names[i], ports[i]);
    }
  }

  private ServerProcess startNode(String name, String... extra) {
    List<String> members = new ArrayList<>();
    clusterPorts.forEach((n, p) -> {
      if (!n.equals(name)) {
        members.add("127.0.0.1:" + p);
      }
    });
    List<String> args = new ArrayList<>(List.of("--no-semantic", "--no-welcome", "--no-stdio", "--cluster",
        "--cluster-node", name, "--cluster-port", String.valueOf(clusterPorts.get(name)),
        "--cluster-members", String.join(",", members)));
    args.addAll(List.of(extra));
    ServerProcess p = ServerProcess.start(dir.resolve("vault"), dir.resolve("index-" + name),
        dir.resolve(name + "-stderr.log"), SMALL_JVM, args.toArray(String[]::new));
    nodes.put(name, p);
    return p;
  }

  private void awaitMembers(int n) throws Exception {
    long until = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < until) {
      boolean all = true;
      for (ServerProcess p : nodes.values()) {
        JsonObject h = health(p);
        if (h == null || h.getJsonObject("cluster").getInteger("members") != n) {
          all = false;
        }
      }
      if (all) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the cluster did not reach " + n + " members");
  }

  private static JsonObject health(ServerProcess p) {
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(p.baseUrl().resolve("healthz")).build(), HttpResponse.BodyHandlers.ofString());
      return new JsonObject(r.body());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private JsonObject call(ServerProcess node, String tool, JsonObject args) throws IOException {
    return clients.computeIfAbsent(node.mcpUrl(), u -> new StatelessCalls(u, "cluster-it")).call(tool, args);
  }

  private static JsonObject counter(String path) {
    return new JsonObject().put("path", path).put("base_revision", (Object) null).put("title", "Counter")
        .put("content", new JsonObject().put("records", new JsonArray().add(new JsonObject().put("type", "metric")
            .put("id", "c1").put("fields", new JsonObject().put("t", new JsonArray().add("Counter"))
                .put("v", new JsonArray().add("0"))))));
  }

  private static JsonObject increment(String path, JsonObject doc, int value, String requestId) {
    return new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", requestId)
        .put("operations", new JsonArray().add(new JsonObject().put("op", "set").put("entity", "c1")
            .put("key", "v").put("value", Integer.toString(value))));
  }

  private static int value(JsonObject got) {
    return Integer.parseInt(got.getJsonObject("entity").getJsonObject("fields").getJsonArray("v").getString(0));
  }

  @Test
  void aWriteOnOneNodeIsReadOnEveryOtherAtOnce() throws Exception {
    allocatePorts("a", "b", "c");
    ServerProcess a = startNode("a");
    ServerProcess b = startNode("b");
    ServerProcess c = startNode("c");
    awaitMembers(3);
    List<ServerProcess> all = List.of(a, b, c);
    // A subscriber on c hears writes made on a and b (2025-era session, Streamable HTTP).
    java.util.concurrent.BlockingQueue<List<io.modelcontextprotocol.spec.McpSchema.ResourceContents>> updates =
        new java.util.concurrent.LinkedBlockingQueue<>();
    io.modelcontextprotocol.client.McpSyncClient subscriber = dev.gram.testing.McpClients.subscriber(
        dev.gram.testing.McpClients.streamableHttpTransport(c.origin()), "subscriber-on-c", updates::add);
    subscriber.initialize();
    subscriber.subscribeResource(new io.modelcontextprotocol.spec.McpSchema.SubscribeRequest("gram://shared/"));
    for (int d = 0; d < 6; d++) {
      String path = "shared/doc" + d + ".gram";
      JsonObject created = call(all.get(d % 3), "gram_create", counter(path));
      assertThat(created.containsKey("error")).as(created.encode()).isFalse();
      JsonObject doc = created.getJsonObject("doc");
      for (int k = 1; k <= 3; k++) {
        ServerProcess writer = all.get((d + k) % 3);
        JsonObject r = call(writer, "gram_patch", increment(path, doc, k, "w" + d + "-" + k));
        assertThat(r.containsKey("error")).as(r.encode()).isFalse();
        doc = r.getJsonObject("doc");
        for (ServerProcess reader : all) {
          JsonObject got = call(reader, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
          assertThat(got.getJsonObject("doc").getInteger("rev")).as("revision read on another node right after the receipt")
              .isEqualTo(doc.getInteger("rev"));
          assertThat(got.getJsonObject("doc").getString("hash")).isEqualTo(doc.getString("hash"));
          assertThat(value(got)).isEqualTo(k);
        }
      }
      // Search on every node finds it at once too: each keeps its own index, fed before the receipt.
      for (ServerProcess reader : all) {
        JsonObject found = call(reader, "gram_recall", new JsonObject().put("query", "Counter").put("folder", "shared"));
        assertThat(found.encode()).as("recall on another node").contains(path);
      }
    }
    java.util.Set<String> heard = new java.util.HashSet<>();
    long until = System.nanoTime() + 20_000_000_000L;
    while (heard.size() < 6 && System.nanoTime() < until) {
      var got = updates.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
      if (got != null) {
        got.forEach(rc -> heard.add(rc.uri()));
      }
    }
    subscriber.closeGracefully();
    assertThat(heard).as("updates heard on node c").contains("gram://shared/doc0.gram", "gram://shared/doc1.gram",
        "gram://shared/doc3.gram", "gram://shared/doc4.gram");
    // One request_id, one intent, across nodes and documents.
    JsonObject doc1 = call(c, "gram_get", new JsonObject().put("path", "shared/doc1.gram").put("entity", "c1"))
        .getJsonObject("doc");
    JsonObject reuse = call(c, "gram_patch", increment("shared/doc1.gram", doc1, 99, "w0-1"));
    assertThat(reuse.getJsonObject("error").getString("code")).isEqualTo("E_REQUEST_REUSE");
    // Each node says what it is part of.
    JsonObject caps = call(b, "gram_capabilities", new JsonObject());
    assertThat(caps.getJsonObject("cluster").getInteger("members")).isEqualTo(3);
    int partitions = 0;
    for (ServerProcess p : all) {
      partitions += health(p).getJsonObject("cluster").getInteger("partitions_owned");
    }
    assertThat(partitions).as("every partition has one owner").isEqualTo(271);

    // A person edits a document's file once its owner has checkpointed the last revision there:
    // every node reads the edit (each watches the shared folder).
    Path file = dir.resolve("vault/shared/doc2.gram");
    long checkpointed = System.nanoTime() + 30_000_000_000L;
    while (!Files.readString(file).contains("\n@history 3 ") && System.nanoTime() < checkpointed) {
      Thread.sleep(100);
    }
    // Saved as many editors save, whole (a save seen halfway is SaveInProgress's, tested on its own).
    Path saving = file.resolveSibling(".doc2.gram.saving");
    Files.writeString(saving, Files.readString(file).replaceFirst("\nv 3\n", "\nv 77\n"));
    Files.move(saving, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    for (ServerProcess reader : all) {
      long readBy = System.nanoTime() + 30_000_000_000L;
      int seen = -1;
      while (seen != 77 && System.nanoTime() < readBy) {
        seen = value(call(reader, "gram_get", new JsonObject().put("path", "shared/doc2.gram").put("entity", "c1")));
        if (seen != 77) {
          Thread.sleep(50);
        }
      }
      assertThat(seen).as("a person's edit of the file, read on every node").isEqualTo(77);
    }
  }

  @Test
  void sixteenWritersOverThreeNodesLoseNoUpdate() throws Exception {
    allocatePorts("a", "b", "c");
    List<ServerProcess> all = List.of(startNode("a"), startNode("b"), startNode("c"));
    awaitMembers(3);
    String path = "shared/counter.gram";
    assertThat(call(all.get(0), "gram_create", counter(path)).containsKey("error")).isFalse();
    int target = Integer.getInteger("gram.cluster.increments", 300);
    ConcurrentLinkedQueue<String[]> acks = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 16; w++) {
      ServerProcess node = all.get(w % 3);
      int writer = w;
      writers.add(pool.submit(() -> {
        int n = 0;
        while (acks.size() < target) {
          JsonObject got = call(node, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
          String id = "w" + writer + "-" + n++;
          JsonObject r = call(node, "gram_patch", increment(path, got.getJsonObject("doc"), value(got) + 1, id));
          if (r.containsKey("error")) {
            assertThat(r.getJsonObject("error").getString("code")).as(r.encode()).isEqualTo("STALE_REVISION");
          } else {
            acks.add(new String[] {id, String.valueOf(r.getJsonObject("doc").getInteger("rev"))});
          }
        }
        return null;
      }));
    }
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    for (ServerProcess p : all) {
      JsonObject got = call(p, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
      assertThat(value(got)).as("the counter on every node").isEqualTo(acks.size());
    }
    for (ServerProcess p : all) {
      assertThat(p.stop()).isZero();
    }
    History h = history(path);
    Map<String, Integer> seen = new HashMap<>();
    for (Revision r : h.revisions()) {
      if (r.requestId() != null) {
        seen.merge(r.requestId(), 1, Integer::sum);
      }
    }
    Map<String, Integer> expected = new HashMap<>();
    for (String[] a : acks) {
      expected.put(a[0], 1);
      assertThat(h.revision(Integer.parseInt(a[1])).requestId()).isEqualTo(a[0]);
    }
    assertThat(seen).as("one chain; every acknowledged request_id exactly once, nothing else").isEqualTo(expected);
  }

  @Test
  void requestIdClaimsAreLetGoOnceEveryNodeHoldsTheRevision() throws Exception {
    allocatePorts("a", "b");
    List<ServerProcess> all = List.of(startNode("a"), startNode("b"));
    awaitMembers(2);
    String path = "shared/claims.gram";
    JsonObject doc = call(all.get(0), "gram_create", counter(path)).getJsonObject("doc");
    JsonObject created = doc;
    int writes = 3 * RequestIdClaims.BATCH;
    for (int i = 0; i < writes; i++) {
      JsonObject r = call(all.get(i % 2), "gram_patch", increment(path, doc, i + 1, "claim-" + i));
      assertThat(r.containsKey("error")).as(r.encode()).isFalse();
      doc = r.getJsonObject("doc");
    }
    // Each owner lets settled claims go in batches, so fewer than a batch stay per node; kept for
    // an hour, all of them would.
    long bound = 2L * (RequestIdClaims.BATCH - 1);
    long held = -1;
    long until = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < until) {
      held = 0;
      for (ServerProcess p : all) {
        held += health(p).getJsonObject("cluster").getLong("requestClaims");
      }
      if (held <= bound) {
        break;
      }
      Thread.sleep(50);
    }
    assertThat(held).as("claims held after %d writes", writes).isLessThanOrEqualTo(bound);
    // Without its claim, an id still keeps its intent on every node: the same write again gets
    // its original receipt, and the id on another document is refused.
    for (ServerProcess p : all) {
      JsonObject again = call(p, "gram_patch", increment(path, created, 1, "claim-0"));
      assertThat(again.containsKey("error")).as(again.encode()).isFalse();
      assertThat(again.getJsonObject("doc").getInteger("rev")).as(again.encode()).isEqualTo(1);
      String otherPath = "shared/other-" + p.mcpUrl().getPort() + ".gram";
      JsonObject other = call(p, "gram_create", counter(otherPath)).getJsonObject("doc");
      JsonObject reused = call(p, "gram_patch", increment(otherPath, other, 1, "claim-1"));
      assertThat(reused.containsKey("error")).as(reused.encode()).isTrue();
      assertThat(reused.getJsonObject("error").getString("code")).as(reused.encode()).isEqualTo("E_REQUEST_REUSE");
    }
  }

  @Test
  void killingNodesUnderLoadLosesNoAcknowledgedWrite() throws Exception {
    int cycles = Integer.getInteger("gram.cluster.killCycles", DEFAULT_KILL_CYCLES);
    allocatePorts("a", "b", "c");
    // Revisions stay in the logs between kills (no checkpoint for an hour): only the take-over of
    // a dead node's log, or a follower's copy, can bring them into the files.
    String[] lag = {"--checkpoint-lag-ms", "3600000"};
    for (String n : List.of("a", "b", "c")) {
      startNode(n, lag);
    }
    awaitMembers(3);
    // Several busy documents: their owners are spread over the nodes, so every kill takes down
    // the owner of some of them while they are being written.
    List<String> paths = new ArrayList<>();
    for (int d = 0; d < 6; d++) {
      paths.add("busy/doc" + d + ".gram");
      assertThat(call(nodes.get("a"), "gram_create", counter(paths.get(d))).containsKey("error")).isFalse();
    }
    Map<String, String> acked = new ConcurrentHashMap<>(); // request_id -> path
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong unknown = new AtomicLong();
    AtomicInteger ids = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 6; w++) {
      writers.add(pool.submit(() -> {
        while (running.get()) {
          String path = paths.get(ThreadLocalRandom.current().nextInt(paths.size()));
          String id = "k" + ids.incrementAndGet();
          JsonObject args = null;
          // Retry the same intent through any live node until its outcome is known.
          for (int attempt = 0; attempt < 200; attempt++) {
            ServerProcess node = anyLiveNode();
            try {
              if (args == null) {
                JsonObject got = call(node, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
                if (got.containsKey("error")) {
                  Thread.sleep(50);
                  continue;
                }
                args = increment(path, got.getJsonObject("doc"), value(got) + 1, id);
              }
              JsonObject r = call(node, "gram_patch", args);
              if (!r.containsKey("error")) {
                acked.put(id, path);
                break;
              }
              String code = r.getJsonObject("error").getString("code");
              if (code.equals("STALE_REVISION")) {
                break; // did not land (a landed write would have replayed its receipt)
              }
              unknown.incrementAndGet();
              Thread.sleep(50);
            } catch (IOException e) {
              unknown.incrementAndGet(); // the node died under the call: ask another
              Thread.sleep(50);
            }
          }
        }
        return null;
      }));
    }
    List<String> order = List.of("a", "b", "c");
    for (int cycle = 0; cycle < cycles; cycle++) {
      Thread.sleep(1_500);
      String victim = order.get(cycle % 3);
      nodes.remove(victim).kill();
      Thread.sleep(1_500);
      startNode(victim, lag);
      awaitMembers(3);
    }
    Thread.sleep(1_000);
    running.set(false);
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    assertThat(acked).as("writes acknowledged across %d kills", cycles).hasSizeGreaterThan(cycles * 5);
    // Every node reads every acknowledged write, before any clean stop.
    for (String path : paths) {
      long expected = acked.values().stream().filter(path::equals).count();
      for (ServerProcess p : nodes.values()) {
        JsonObject got = call(p, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
        assertThat(got.getJsonObject("doc").getInteger("rev")).as(path + " on a node").isGreaterThanOrEqualTo((int) expected);
      }
    }
    // A last SIGKILL of every node: the files and logs on disk must hold everything.
    for (ServerProcess p : nodes.values()) {
      p.kill();
    }
    nodes.clear();
    startNode("a");
    awaitMembers(1);
    ServerProcess last = nodes.get("a");
    long until = System.nanoTime() + 60_000_000_000L;
    while (health(last).getJsonObject("cluster").getBoolean("taking_over") && System.nanoTime() < until) {
      Thread.sleep(100); // the logs of b and c, and a's own from before the kill
    }
    Map<String, Integer> seen = new HashMap<>();
    for (String path : paths) {
      JsonObject got = call(last, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
      assertThat(got.containsKey("error")).as(got.encode()).isFalse();
    }
    assertThat(last.stop()).isZero();
    nodes.clear();
    for (String path : paths) {
      History h = history(path);
      for (Revision r : h.revisions()) {
        if (r.requestId() != null) {
          assertThat(seen.merge(r.requestId(), 1, Integer::sum)).as("request_id %s committed once", r.requestId())
              .isEqualTo(1);
          assertThat(acked.getOrDefault(r.requestId(), path)).isEqualTo(path);
        }
      }
    }
    for (Map.Entry<String, String> a : acked.entrySet()) {
      assertThat(seen).as("acknowledged %s in %s (of %d acknowledged, %d unknown outcomes)", a.getKey(), a.getValue(),
          acked.size(), unknown.get()).containsKey(a.getKey());
    }
  }

  /**
   * The longest a write may wait while a node joins and partitions move to it (docs/cluster.md):
   * generous for a 2-core machine running three JVMs and the writers.
   */
  static final long JOIN_PAUSE_BOUND_MS = 5_000;

  @Test
  void aJoiningNodeTakesDocumentsWithoutALongPause() throws Exception {
    allocatePorts("a", "b", "c");
    ServerProcess a = startNode("a");
    ServerProcess b = startNode("b");
    awaitMembers(2);
    List<String> paths = new ArrayList<>();
    for (int d = 0; d < 6; d++) {
      paths.add("join/doc" + d + ".gram");
      assertThat(call(a, "gram_create", counter(paths.get(d))).containsKey("error")).isFalse();
    }
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicBoolean joining = new AtomicBoolean(false);
    AtomicLong slowestBefore = new AtomicLong();
    AtomicLong slowestDuring = new AtomicLong();
    AtomicInteger writes = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      ServerProcess node = w % 2 == 0 ? a : b;
      String path = paths.get(w);
      int writer = w;
      writers.add(pool.submit(() -> {
        int n = 0;
        while (running.get()) {
          long t0 = System.nanoTime();
          JsonObject got = call(node, "gram_get", new JsonObject().put("path", path).put("entity", "c1"));
          JsonObject r = call(node, "gram_patch",
              increment(path, got.getJsonObject("doc"), value(got) + 1, "j" + writer + "-" + n++));
          long ms = (System.nanoTime() - t0) / 1_000_000;
          assertThat(r.containsKey("error")).as(r.encode()).isFalse(); // one writer per document
          writes.incrementAndGet();
          (joining.get() ? slowestDuring : slowestBefore).accumulateAndGet(ms, Math::max);
        }
        return null;
      }));
    }
    Thread.sleep(2_000);
    joining.set(true);
    ServerProcess c = startNode("c");
    awaitMembers(3);
    Thread.sleep(3_000);
    running.set(false);
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    System.out.printf("join: %d writes; slowest read+write before the join %d ms, while c joined %d ms%n",
        writes.get(), slowestBefore.get(), slowestDuring.get());
    assertThat(slowestDuring.get()).as("slowest read+write while a node joined, ms").isLessThanOrEqualTo(JOIN_PAUSE_BOUND_MS);
    assertThat(health(c).getJsonObject("cluster").getInteger("partitions_owned")).as("the new node owns documents")
        .isGreaterThan(0);
    for (String path : paths) {
      JsonObject onA = call(a, "gram_get", new JsonObject().put("path", path)).getJsonObject("doc");
      JsonObject onC = call(c, "gram_get", new JsonObject().put("path", path)).getJsonObject("doc");
      assertThat(onC).as(path + " on the new node").isEqualTo(onA);
    }
  }

  private ServerProcess anyLiveNode() {
    List<ServerProcess> live = new ArrayList<>(nodes.values());
    if (live.isEmpty()) {
      throw new IllegalStateException("no node is running");
    }
    return live.get(ThreadLocalRandom.current().nextInt(live.size()));
  }

  private History history(String path) throws Exception {
    GramFile file = GramParser.parseOrThrow(Files.readString(dir.resolve("vault").resolve(path)));
    return History.verify(file.history(), file.headRev(), file.headChain());
  }
}
