package dev.gram.bench;

import dev.gram.edit.Creation;
import dev.gram.edit.PatchOps;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.RequestDigest;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The store's own CPU per commit, without transport, JSON or index: one writer, one document,
 * sequential {@code set} commits through the write-ahead log, on documents of 10 to 3,000
 * records. CPU is the sum of every thread's CPU time in this JVM (ThreadMXBean) over the run,
 * divided by the commits, minus nothing: the writer's own wait loop is included, so the figure
 * is an upper bound. Run: {@code mvn -B -Pbench -DskipTests package exec:exec
 * -Dbench.main=dev.gram.bench.CommitCpuBench}.
 *
 * <p>Other modes: {@code -Dbench.historyCommits=N}, the cost of a commit as the history grows
 * ({@link #growing}); {@code -Dbench.memoryCommits=N}, the heap a revision holds, written and after
 * a restart ({@link #memory}; {@code -Dbench.histogram=true} adds the live classes).
 */
public final class CommitCpuBench {
  private CommitCpuBench() {}

  public static void main(String[] args) throws Exception {
    Path base = Files.createDirectories(Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath());
    Path root = Files.createTempDirectory(base, "cpu-");
    int memoryCommits = Integer.getInteger("bench.memoryCommits", 0);
    if (memoryCommits > 0) {
      memory(root.resolve("memory"), memoryCommits);
      System.exit(0);
    }
    int historyCommits = Integer.getInteger("bench.historyCommits", 0);
    if (historyCommits > 0) {
      growing(root.resolve("growing"), historyCommits);
      System.exit(0);
    }
    System.err.println("| records in the document | commits | CPU per commit (all threads) | wall per commit |");
    System.err.println("|---|---|---|---|");
    for (int records : new int[] {10, 300, 3_000}) {
      run(root.resolve("r" + records), records, 3_000);
    }
    System.exit(0);
  }

  static void run(Path dir, int records, int commits) throws Exception {
    Vault vault = open(dir);
    VaultPath vp = seeded(vault, records);
    for (int i = 0; i < 300; i++) {
      commit(vault, vp, "warm-" + i, set(i));
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = totalCpu(mx);
    long t0 = System.nanoTime();
    for (int i = 0; i < commits; i++) {
      commit(vault, vp, "c-" + i, set(i));
    }
    long wall = System.nanoTime() - t0;
    long cpu = totalCpu(mx) - cpu0;
    System.err.printf(Locale.ROOT, "| %d | %d | %.3f ms | %.3f ms |%n", records, commits,
        cpu / 1e6 / commits, wall / 1e6 / commits);
    await(vault.close());
  }

  /**
   * What a commit costs as its document's history grows: one document of 10 records, {@code
   * commits} sequential commits, CPU and wall per commit for each tenth of them. A commit whose
   * cost grows with the revisions before it shows here as a rising row.
   */
  static void growing(Path dir, int commits) throws Exception {
    Vault vault = open(dir);
    VaultPath vp = seeded(vault, 10);
    System.err.println("| revisions before | commits | CPU per commit (all threads) | wall per commit |");
    System.err.println("|---|---|---|---|");
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    int block = Math.max(1, commits / 10);
    for (int done = 0; done < commits; done += block) {
      long cpu0 = totalCpu(mx);
      long t0 = System.nanoTime();
      for (int i = done; i < done + block; i++) {
        commit(vault, vp, "g-" + i, set(i));
      }
      long wall = System.nanoTime() - t0;
      long cpu = totalCpu(mx) - cpu0;
      System.err.printf(Locale.ROOT, "| %d | %d | %.3f ms | %.3f ms |%n", done + 2, block, cpu / 1e6 / block,
          wall / 1e6 / block);
    }
    await(vault.close());
  }

  /**
   * The heap a revision holds: one document of 10 records, {@code commits} sequential commits,
   * the live heap after a full collection before and after them, and again after the vault is
   * closed and opened anew (what a restart loads from the file), divided by the commits. Every
   * revision of every document is in memory today, so this bounds the history a heap can start.
   */
  static void memory(Path dir, int commits) throws Exception {
    Vault vault = open(dir);
    VaultPath vp = seeded(vault, 10);
    long before = liveHeap();
    for (int i = 0; i < commits; i++) {
      commit(vault, vp, "m-" + i, set(i));
    }
    long written = liveHeap();
    await(vault.close());
    vault = null;
    long closed = liveHeap();
    long t0 = System.nanoTime();
    Vault reopened = open(dir);
    await(reopened.read(reopened.paths().writableDocument("p/doc.gram")));
    double loadMs = (System.nanoTime() - t0) / 1e6;
    long loaded = liveHeap();
    System.err.println("| commits | live heap per revision, written | after a restart | start and first read |");
    System.err.println("|---|---|---|---|");
    System.err.printf(Locale.ROOT, "| %d | %d B | %d B | %.0f ms |%n", commits, (written - before) / commits,
        (loaded - closed) / commits, loadMs);
    if (Boolean.getBoolean("bench.histogram")) {
      // Where the bytes are: the live classes' counts and sizes, as jcmd GC.class_histogram shows.
      Object lines = ManagementFactory.getPlatformMBeanServer().invoke(
          new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      ((String) lines).lines().limit(25).forEach(System.err::println);
    }
    await(reopened.close());
  }

  /** The heap in use after full collections, once it stops shrinking. */
  static long liveHeap() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /** A vault of its own in {@code dir}, started. */
  static Vault open(Path dir) throws Exception {
    Vault vault = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 4,
        new Vault.Durability(Vault.LogMode.WRITE, Duration.ofSeconds(1)));
    await(vault.start());
    return vault;
  }

  /** Creates {@code p/doc.gram} and adds {@code records} tasks to it in one commit. */
  static VaultPath seeded(Vault vault, int records) throws Exception {
    VaultPath vp = vault.paths().writableDocument("p/doc.gram");
    Creation.Result r = Creation.build(Creation.newDocumentId(), "Doc", "", id -> false);
    await(vault.submit(new WriteCommand.Create(vp, r.state(), "bench", null, r.created(), r.diagnostics())));
    JsonArray adds = new JsonArray();
    for (int i = 0; i < records; i++) {
      adds.add(new JsonObject().put("op", "add").put("record", new JsonObject().put("type", "task").put("id", "t" + i)
          .put("fields", new JsonObject().put("t", new JsonArray().add("Task " + i + " with a title of some length")))));
    }
    commit(vault, vp, "seed", adds);
    return vp;
  }

  static JsonArray set(int i) {
    return new JsonArray().add(new JsonObject().put("op", "set").put("entity", "t" + (i % 7)).put("key", "d")
        .put("value", "value " + i));
  }

  static CommitReceipt commit(Vault vault, VaultPath vp, String id, JsonArray ops) throws Exception {
    DocSnapshot s = await(vault.read(vp));
    String digest = RequestDigest.of(vp.path(), s.rev(), s.shortHash(), ops, null);
    return await(vault.submit(new WriteCommand.Patch(vp, s.rev(), s.shortHash(), id, digest, ops, "bench", null)));
  }

  static long totalCpu(ThreadMXBean mx) {
    long sum = 0;
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      if (t > 0) {
        sum += t;
      }
    }
    return sum;
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
