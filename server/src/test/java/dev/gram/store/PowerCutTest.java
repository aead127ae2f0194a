package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.Creation;
import dev.gram.edit.PatchOps;
import dev.gram.format.Revision;
import dev.gram.testing.disk.SimulatedDisk;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power cuts at every I/O operation of a scenario, the way SQLite tests its journal: the real
 * store runs on a {@link SimulatedDisk}; a first run counts the operations a scenario performs;
 * then, for each N, a fresh run has the power cut after its Nth operation, the disk is restored as
 * it would come back (half of the runs keep a torn prefix of the unsynced writes), a new vault
 * recovers from it on plain files, and every acknowledged write must be in its document exactly
 * once, every document must verify, and no request_id may appear twice. While the power is off,
 * writes must answer {@code E_STORAGE} or {@code COMMIT_UNKNOWN} and reads must go on from memory.
 *
 * <p>The default run cuts at up to {@code gram.powercut.points} operations of each scenario (all
 * of them for the small ones); {@code -Psoak} cuts at every operation, several times over
 * ({@code gram.powercut.repeats}).
 */
class PowerCutTest {
  private static final int POINTS = Integer.getInteger("gram.powercut.points", 110);
  private static final int REPEATS = Integer.getInteger("gram.powercut.repeats", 1);
  private static final boolean SOAK = Boolean.getBoolean("gram.soak");
  private static final int KILL_STRIDE = SOAK ? 1 : 7;

  @TempDir Path tmp;

  /** What a scenario's writers were told, as the clients would remember it. */
  static final class Ledger {
    /** request_id → path, for every patch whose receipt came back. */
    final Map<String, String> acked = new ConcurrentHashMap<>();
    /** Paths whose create was acknowledged. */
    final Set<String> created = ConcurrentHashMap.newKeySet();
    /** Answers that must not happen: a write refused with another code, a read that failed while the power was off. */
    final Queue<String> wrong = new ConcurrentLinkedQueue<>();
    /** Writes whose outcome the client does not know (no answer, or an error once the disk was gone): it retries them. */
    final Queue<WriteCommand.Patch> unsure = new ConcurrentLinkedQueue<>();
    /** The process the clients talk to; once it is killed or the power is cut, they stop. */
    int process;

    boolean serverGone(SimulatedDisk disk) {
      return disk.isCut() || disk.process() != process;
    }
  }

  /** One scenario: what the vault holds before, how it is opened, what its clients do. */
  record Scenario(String name, Duration checkpointLag, Duration fsyncLatency, Seed seed, Workload workload) {}

  interface Seed {
    /** Fills {@code dir}, a real folder; returns what it acknowledged. */
    Ledger fill(Path dir) throws Exception;
  }

  interface Workload {
    void run(Vault vault, SimulatedDisk disk, Ledger ledger) throws Exception;
  }

  // ------------------------------------------------------------------ scenarios

  @Test
  void oneWriter() throws Exception {
    systematic(new Scenario("one-writer", Duration.ofMillis(3), Duration.ZERO, docs(1),
        (v, disk, l) -> patches(v, disk, l, "p/d0.gram", "w", 24)));
  }

  @Test
  void eightWritersOnFourDocumentsWhileTheCheckpointerRotatesTheLog() throws Exception {
    systematic(new Scenario("eight-writers", Duration.ofMillis(1), Duration.ofNanos(300_000), docs(4),
        (v, disk, l) -> parallel(8, w -> patches(v, disk, l, "p/d" + (w % 4) + ".gram", "w" + w + "-", 10))));
  }

  @Test
  void creates() throws Exception {
    systematic(new Scenario("creates", Duration.ofMillis(2), Duration.ZERO, docs(0),
        (v, disk, l) -> {
          for (int i = 0; i < 8; i++) {
            String path = "f" + (i % 3) + "/sub/c" + i + ".gram";
            if (!create(v, disk, l, path)) {
              return;
            }
            patches(v, disk, l, path, "c" + i + "-", 1);
          }
        }));
  }

  @Test
  void aCheckpointOfALargeDocument() throws Exception {
    systematic(new Scenario("large-checkpoint", Duration.ofHours(1), Duration.ZERO,
        dir -> {
          Ledger l = new Ledger();
          try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
            t.create("p/big.gram", "Big", "");
            for (int i = 0; i < 6; i++) {
              JsonArray ops = new JsonArray();
              for (int j = 0; j < 60; j++) {
                ops.add(TestVault.add("task", "t" + i + "x" + j, "Task " + i + "/" + j + " " + "words ".repeat(20)));
              }
              DocSnapshot s = t.read("p/big.gram");
              t.patch("p/big.gram", s.rev(), s.shortHash(), "seed" + i, ops);
              l.acked.put("seed" + i, "p/big.gram");
            }
          }
          return l;
        },
        (v, disk, l) -> {
          patches(v, disk, l, "p/big.gram", "w", 3);
          v.checkpointNow();
          patches(v, disk, l, "p/big.gram", "x", 2);
          v.checkpointNow();
        }));
  }

  @Test
  void recoveryItself() throws Exception {
    systematic(new Scenario("recovery", Duration.ofHours(1), Duration.ZERO,
        dir -> {
          // A vault stopped like a killed process: its revisions only in the log.
          Ledger l = new Ledger();
          TestVault t = TestVault.openWithoutTimedCheckpoints(dir);
          for (int d = 0; d < 3; d++) {
            t.create("p/r" + d + ".gram", "R" + d, "");
            l.created.add("p/r" + d + ".gram");
          }
          for (int i = 0; i < 12; i++) {
            String path = "p/r" + (i % 3) + ".gram";
            DocSnapshot s = t.read(path);
            t.patch(path, s.rev(), s.shortHash(), "log" + i, TestVault.ops(TestVault.set("doc", "n", "v" + i)));
            l.acked.put("log" + i, path);
          }
          t.vault.abandon();
          return l;
        },
        (v, disk, l) -> v.checkpointNow()));
  }

  @Test
  void aFailingFsync() throws Exception {
    systematic(new Scenario("failing-fsync", Duration.ofMillis(2), Duration.ZERO, docs(2),
        (v, disk, l) -> {
          patches(v, disk, l, "p/d0.gram", "a", 3);
          disk.failFsync(name -> name.endsWith(".wal"), 1);
          parallel(2, w -> patches(v, disk, l, "p/d" + w + ".gram", "b" + w + "-", 4));
          disk.failFsync(name -> name.endsWith(".gram") || name.contains(".tmp-"), 1);
          v.checkpointNow();
          patches(v, disk, l, "p/d1.gram", "c", 2);
          v.checkpointNow();
        }));
  }

  /**
   * A killed process (the machine keeps running: what it wrote stays in the page cache), then a
   * new one recovering, its clients retrying what they never heard back, and the power cut after
   * each of a few operations of that recovery. A record the killed process wrote but never synced
   * is replayed and acknowledged to the retry: it must be made durable first; a checkpoint file
   * renamed but not yet synced by the killed process must not let the log lose its records.
   */
  @Test
  void aKilledProcessThenAPowerCutDuringRecovery() throws Exception {
    Path template = Files.createDirectories(tmp.resolve("kill-template"));
    Ledger seeded = docs(2).fill(template);
    long total = killThenCut(template, seeded, Long.MAX_VALUE, Long.MAX_VALUE, 0);
    // Each kill is followed by several recoveries: fewer kill points than the other scenarios' cuts.
    List<Long> kills = cutPoints(total, 7).stream().filter(k -> k % KILL_STRIDE == 0).toList();
    long[] recoveryCuts = SOAK ? new long[] {0, 1, 2, 3, 5, 8, 12, 18, 25, 40, 60, Long.MAX_VALUE}
        : new long[] {1, 4, 9, 20, Long.MAX_VALUE};
    long started = System.nanoTime();
    int runs = 0;
    for (int r = 0; r < REPEATS; r++) {
      for (long k : kills) {
        for (long c : recoveryCuts) {
          killThenCut(template, seeded, k, c, ++runs);
        }
      }
    }
    System.out.printf("power cuts, kill-then-cut: %d operations without a kill; %d kills, each with %d cuts in"
        + " the recovery, in %d ms%n", total, kills.size() * REPEATS, recoveryCuts.length,
        (System.nanoTime() - started) / 1_000_000);
  }

  private long killThenCut(Path template, Ledger seeded, long killAfter, long cutAfterRecoveryOps, int runIndex)
      throws Exception {
    Path dir = tmp.resolve("kill-" + runIndex);
    Path live = Files.createDirectories(dir.resolve("live"));
    copyTree(template, live);
    SimulatedDisk disk = SimulatedDisk.over(live);
    disk.fsyncLatency(Duration.ofNanos(300_000));
    disk.killProcessAfter(killAfter);
    Ledger ledger = new Ledger();
    ledger.acked.putAll(seeded.acked);
    ledger.created.addAll(seeded.created);
    String where = "kill-then-cut, process killed after operation " + killAfter + ", power cut after "
        + cutAfterRecoveryOps + " operations of the recovery";
    Vault first = vaultOn(disk.root(), Duration.ofMillis(1));
    Vault second = null;
    try {
      try {
        get(first.start());
        parallel(4, w -> patches(first, disk, ledger, "p/d" + (w % 2) + ".gram", "w" + w + "-", 8));
      } catch (Exception | AssertionError e) {
        if (disk.process() == 0) {
          throw e;
        }
      }
      long total = disk.operations();
      if (disk.process() == 0) {
        disk.killProcess();
      }
      first.abandon();
      // The next process: recovery, the clients' retries, then the power cut somewhere in it.
      ledger.process = disk.process();
      disk.cutAfter(cutAfterRecoveryOps == Long.MAX_VALUE ? Long.MAX_VALUE : disk.operations() + cutAfterRecoveryOps);
      // Checkpoints only when asked: the retries' receipts come before any rewrite of the files.
      Vault v = vaultOn(disk.root(), Duration.ofHours(1));
      second = v;
      try {
        get(v.start());
        for (WriteCommand.Patch p : ledger.unsure) {
          VaultPath vp = v.paths().writableDocument(p.path().path());
          WriteCommand.Patch again = new WriteCommand.Patch(vp, p.baseRevision(), p.expectedHash(), p.requestId(),
              p.digest(), p.operations(), p.by(), p.effectiveAt());
          try {
            get(v.submit(again));
            ledger.acked.put(p.requestId(), vp.path());
          } catch (GramException e) {
            if (!disk.isCut() && e.code() != ErrorCode.STALE_REVISION) {
              throw new AssertionError(where + ": retrying " + p.requestId() + ": " + e.code() + " " + e.getMessage());
            }
          }
        }
        patches(v, disk, ledger, "p/d0.gram", "after-", 2);
        v.checkpointNow();
      } catch (Exception | AssertionError e) {
        if (!disk.isCut()) {
          throw e;
        }
      }
      disk.cutNow();
      v.abandon();
      Path after = dir.resolve("after");
      SimulatedDisk.Loss loss = runIndex % 2 == 0 ? SimulatedDisk.Loss.ALL_UNSYNCED : SimulatedDisk.Loss.TORN_PREFIX;
      disk.restoreTo(after, loss, runIndex);
      assertThat(ledger.wrong).as("%s: answers once the server was gone", where).isEmpty();
      verify(after, ledger, where + " (" + loss + "; last operations " + disk.recentOperations() + ")", false);
      return total;
    } finally {
      if (!disk.isCut()) {
        disk.cutNow();
        first.abandon();
        if (second != null) {
          second.abandon();
        }
      }
      dev.gram.testing.Trees.delete(dir);
    }
  }

  private static Vault vaultOn(Path root, Duration checkpointLag) {
    return new Vault(new PathResolver(root, List.of()), new PatchOps(), Clock.systemUTC(), 8,
        new Vault.Durability(Vault.LogMode.WRITE, checkpointLag));
  }

  // ------------------------------------------------------------------ the harness

  private void systematic(Scenario sc) throws Exception {
    Path template = Files.createDirectories(tmp.resolve(sc.name() + "-template"));
    Ledger seeded = sc.seed().fill(template);
    long total = run(sc, template, seeded, Long.MAX_VALUE, 0);
    assertThat(total).as("the scenario performs I/O").isGreaterThan(5);
    List<Long> points = cutPoints(total, sc.name().hashCode());
    long started = System.nanoTime();
    int runs = 0;
    for (int r = 0; r < REPEATS; r++) {
      for (long n : points) {
        run(sc, template, seeded, n, runs++);
      }
    }
    System.out.printf("power cuts, %s: %d operations without a cut; %d cuts in %d ms%n", sc.name(), total, runs,
        (System.nanoTime() - started) / 1_000_000);
  }

  /** Every operation when they are few, else the first ones and an even spread with a random offset. */
  private static List<Long> cutPoints(long total, long seed) {
    TreeSet<Long> out = new TreeSet<>();
    // A concurrent scenario does a little more or less from run to run: cut past the dry run too.
    long last = total + total / 10 + 2;
    if (last <= POINTS) {
      for (long n = 0; n <= last; n++) {
        out.add(n);
      }
      return new ArrayList<>(out);
    }
    for (long n = 0; n < 20; n++) {
      out.add(n);
    }
    Random random = new Random(seed);
    double step = (double) last / (POINTS - 20);
    for (int i = 0; i < POINTS - 20; i++) {
      out.add(Math.min(last, (long) (i * step + random.nextDouble() * step)));
    }
    return new ArrayList<>(out);
  }

  private long run(Scenario sc, Path template, Ledger seeded, long cutAfter, int runIndex) throws Exception {
    Path dir = tmp.resolve(sc.name() + "-" + runIndex);
    Path live = Files.createDirectories(dir.resolve("live"));
    copyTree(template, live);
    SimulatedDisk disk = SimulatedDisk.over(live);
    disk.fsyncLatency(sc.fsyncLatency());
    disk.cutAfter(cutAfter);
    Ledger ledger = new Ledger();
    ledger.acked.putAll(seeded.acked);
    ledger.created.addAll(seeded.created);
    Vault v = new Vault(new PathResolver(disk.root(), List.of()), new PatchOps(), Clock.systemUTC(), 8,
        new Vault.Durability(Vault.LogMode.WRITE, sc.checkpointLag()));
    String where = sc.name() + ", power cut after operation " + cutAfter;
    try {
      boolean started;
      try {
        get(v.start());
        started = true;
      } catch (Exception e) {
        if (!disk.isCut()) {
          throw new AssertionError(where + ": the vault did not start", e);
        }
        started = false;
      }
      if (started) {
        sc.workload().run(v, disk, ledger);
      }
      long total = disk.operations();
      disk.cutNow();
      readsGoOn(v, ledger);
      v.abandon();
      Path after = dir.resolve("after");
      SimulatedDisk.Loss loss = runIndex % 2 == 0 ? SimulatedDisk.Loss.ALL_UNSYNCED : SimulatedDisk.Loss.TORN_PREFIX;
      disk.restoreTo(after, loss, runIndex);
      assertThat(ledger.wrong).as("%s: answers while the power was off", where).isEmpty();
      verify(after, ledger, where + " (" + loss + "; last operations " + disk.recentOperations() + ")",
          disk.fsyncsFailed() > 0);
      return total;
    } finally {
      if (!disk.isCut()) {
        disk.cutNow();
        v.abandon();
      }
      dev.gram.testing.Trees.delete(dir);
    }
  }

  /** Copies a vault as another machine would find it: every file and folder, no lock file. */
  static void copyTree(Path from, Path to) throws java.io.IOException {
    try (var s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else if (!p.getFileName().toString().equals(WriteAheadLog.LOCK_FILE)) {
          Files.copy(p, t);
        }
      }
    }
  }

  /** Loaded documents still read from memory once the disk is gone. */
  private static void readsGoOn(Vault v, Ledger l) {
    for (DocSnapshot s : v.documents()) {
      try {
        DocSnapshot again = get(v.read(s.location()));
        if (again.rev() < s.rev()) {
          l.wrong.add("a read went back from revision " + s.rev() + " to " + again.rev());
        }
      } catch (Exception e) {
        l.wrong.add("a read of " + s.path() + " failed after the power cut: " + e);
      }
    }
  }

  /**
   * Recovers from what the disk held and checks every promise. One double fault is allowed to
   * stop a document: an fsync of the log that failed, then the power cut before the void record
   * that cancels its batch was durable. The batch's records the disk kept after a hole it dropped
   * then read as damage in the middle of the log; the document is stopped with E_INTEGRITY, but
   * every acknowledged revision before the damage must still be there.
   */
  private static void verify(Path after, Ledger l, String where, boolean anFsyncFailed) throws Exception {
    try (TestVault t = TestVault.openWithoutTimedCheckpoints(after)) {
      Map<String, Integer> seen = new HashMap<>();
      Map<String, String> at = new HashMap<>();
      for (DocSnapshot s : t.vault.documents()) {
        if (anFsyncFailed && s.failure() != null && s.failure().contains("write-ahead log segment")) {
          System.out.println("power cuts: " + where.substring(0, where.indexOf(" (")) + ": " + s.path()
              + " stopped after a failed fsync: " + s.failure());
        } else {
          assertThat(s.failure()).as("%s: %s verifies", where, s.path()).isNull();
        }
        for (Revision r : s.revisions()) {
          if (r.requestId() != null) {
            seen.merge(r.requestId(), 1, Integer::sum);
            at.put(r.requestId(), s.path());
          }
        }
      }
      for (String path : l.created) {
        assertThat(t.vault.peek(path)).as("%s: the acknowledged create of %s", where, path).isNotNull();
      }
      for (Map.Entry<String, String> e : l.acked.entrySet()) {
        assertThat(seen.getOrDefault(e.getKey(), 0))
            .as("%s: acknowledged request %s in %s", where, e.getKey(), e.getValue()).isEqualTo(1);
        assertThat(at.get(e.getKey())).isEqualTo(e.getValue());
      }
      for (Map.Entry<String, Integer> e : seen.entrySet()) {
        assertThat(e.getValue()).as("%s: request %s appears once at most", where, e.getKey()).isEqualTo(1);
      }
    }
  }

  // ------------------------------------------------------------------ what clients do

  private static Seed docs(int n) {
    return dir -> {
      Ledger l = new Ledger();
      try (TestVault t = TestVault.openWithoutTimedCheckpoints(dir)) {
        for (int i = 0; i < n; i++) {
          t.create("p/d" + i + ".gram", "D" + i, "");
          l.created.add("p/d" + i + ".gram");
        }
      }
      return l;
    };
  }

  /**
   * {@code count} patches of one document, each with its own request_id: a stale base is read
   * again and retried under a new id, a COMMIT_UNKNOWN is retried with the same id (the
   * contract's recovery), and once the power is off the writer stops at its first refusal.
   */
  static void patches(Vault v, SimulatedDisk disk, Ledger l, String path, String prefix, int count) {
    VaultPath vp = v.paths().writableDocument(path);
    for (int i = 0; i < count; i++) {
      int attempt = 0;
      WriteCommand.Patch unsure = null;
      while (true) {
        WriteCommand.Patch p = unsure;
        if (p == null) {
          DocSnapshot s;
          try {
            s = get(v.read(vp));
          } catch (Exception e) {
            if (l.serverGone(disk)) {
              return; // never loaded before the cut
            }
            throw new AssertionError("reading " + path, e);
          }
          String id = prefix + i + (attempt == 0 ? "" : "r" + attempt);
          JsonArray ops = i % 3 == 0
              ? TestVault.ops(TestVault.add("task", id.replaceAll("[^a-z0-9]", ""), "Task " + id))
              : TestVault.ops(TestVault.set("doc", "n", id));
          p = new WriteCommand.Patch(vp, s.rev(), s.shortHash(), id,
              RequestDigest.of(vp.path(), s.rev(), s.shortHash(), ops, null), ops, "writer", null);
        }
        attempt++;
        try {
          get(v.submit(p));
          l.acked.put(p.requestId(), path);
          break;
        } catch (GramException e) {
          if (l.serverGone(disk)) {
            if (e.code() != ErrorCode.E_STORAGE && e.code() != ErrorCode.COMMIT_UNKNOWN
                && e.code() != ErrorCode.STALE_REVISION) {
              l.wrong.add(path + ": " + e.code() + " " + e.getMessage());
            } else if (e.code() != ErrorCode.STALE_REVISION) {
              l.unsure.add(p);
            }
            return;
          }
          if (e.code() == ErrorCode.STALE_REVISION) {
            unsure = null;
          } else if ((e.code() == ErrorCode.COMMIT_UNKNOWN || e.code() == ErrorCode.E_STORAGE) && attempt < 20) {
            unsure = p; // an injected fault: the same request again settles it
          } else {
            throw new AssertionError(path + ": " + e.code() + " " + e.getMessage(), e);
          }
        } catch (Exception e) {
          if (l.serverGone(disk)) {
            l.wrong.add(path + ": not a contract error: " + e);
            return;
          }
          throw new AssertionError(path + ": " + e, e);
        }
      }
    }
  }

  private static boolean create(Vault v, SimulatedDisk disk, Ledger l, String path) {
    VaultPath vp = v.paths().writableDocument(path);
    Creation.Result r = Creation.build(Creation.newDocumentId(), "C", "", id -> v.pathOfDocumentId(id) != null);
    try {
      get(v.submit(new WriteCommand.Create(vp, r.state(), "writer", null, r.created(), r.diagnostics())));
      l.created.add(path);
      return true;
    } catch (GramException e) {
      if (!l.serverGone(disk)) {
        throw new AssertionError(path + ": " + e.code() + " " + e.getMessage(), e);
      }
      if (e.code() != ErrorCode.E_STORAGE && e.code() != ErrorCode.COMMIT_UNKNOWN) {
        l.wrong.add(path + ": " + e.code() + " " + e.getMessage());
      }
      return false;
    } catch (Exception e) {
      if (!l.serverGone(disk)) {
        throw new AssertionError(path + ": " + e, e);
      }
      l.wrong.add(path + ": not a contract error: " + e);
      return false;
    }
  }

  interface Writer {
    void run(int index) throws Exception;
  }

  private static void parallel(int n, Writer w) throws Exception {
    List<Thread> threads = new ArrayList<>();
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    for (int i = 0; i < n; i++) {
      int index = i;
      Thread t = new Thread(() -> {
        try {
          w.run(index);
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "writer-" + i);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(2));
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.peek());
    }
  }

  /** The outcome of a store future: its value, or the GramException or other failure it carried. */
  static <T> T get(Future<T> f) throws Exception {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception ex) {
        throw ex;
      }
      throw e;
    } catch (TimeoutException e) {
      throw new AssertionError("a store operation did not finish within 60 s", e);
    }
  }
}
