package dev.gram.soak;

import dev.gram.testing.ServerProcess;
import dev.gram.testing.StatelessCalls;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Power cuts under the real server, on LazyFS: run by {@code soak/lazyfs-power-cuts.sh} (profile
 * {@code power-cuts}), never by the test suites. Each cut mounts LazyFS over a backing folder,
 * starts the server jar on it with a checkpointer that rotates the log every few milliseconds,
 * lets six writers patch and create, and cuts the power: at a random moment or at an I/O point of
 * the log or the checkpointer ({@link Cut}); now and then the next start is cut again while it
 * replays. After each cut, with LazyFS unmounted, the backing folder is read the way the next
 * start reads it ({@link DiskCheck}): every acknowledged write must be in its document exactly
 * once, every document must verify, and nothing may be there twice. A last clean start and stop
 * must leave files that hold everything and an empty log.
 *
 * <p>Settings (system properties): {@code powercuts.lazyfs} (the LazyFS binary, required), {@code
 * powercuts.cuts} (120), {@code powercuts.writers} (6), {@code powercuts.documents} (4), {@code
 * powercuts.lagMs} ({@code --checkpoint-lag-ms}, 20), {@code powercuts.createEvery} (one operation
 * in 50 is a create), {@code powercuts.replayShare} (0.2), {@code powercuts.seed}, {@code
 * powercuts.dir} (the work folder, emptied first), {@code powercuts.writeMs} (writing lasts a tenth of
 * it plus up to all of it before a cut, 4000), {@code powercuts.only} (a {@link Cut} name: every cut
 * under load of that kind), {@code powercuts.opLog} (whether LazyFS logs its operations, true),
 * {@code gram.jar}. Exits 1 when anything
 * acknowledged was lost or duplicated or a document does not verify.
 */
public final class PowerCutSoak {
  private static final Duration FAULT_TIMEOUT = Duration.ofSeconds(20);
  /** The checkpoint that writes the replayed revisions runs within a second of the start. */
  private static final Duration REPLAY_FAULT_TIMEOUT = Duration.ofSeconds(10);
  /** How long the server goes on answering after LazyFS died, to see what it tells its clients. */
  private static final long ANSWERS_WHILE_GONE_MS = 400;

  private final LazyFs lazyfs;
  private final Path vault;
  private final Path index;
  private final Path serverLog;
  private final Random random;
  private final int cuts;
  private final int writers;
  private final int documents;
  private final int createEvery;
  private final double replayShare;
  private final String lagMs;
  private final int writeMs;
  /** Every cut under load of this one kind, for a focused run; null: all kinds in turn. */
  private final Cut only;
  private final Ledger ledger = new Ledger();
  private final Map<String, Long> answers = new TreeMap<>();
  private final Map<Cut, int[]> byKind = new EnumMap<>(Cut.class); // fired, not fired
  private int replayCuts;
  private long onlyInLog;
  private long neverSynced;
  private final List<String> lost = new ArrayList<>();
  private final List<String> duplicated = new ArrayList<>();
  private final List<String> failing = new ArrayList<>();

  private PowerCutSoak(Path lazyfsBinary, Path dir, long seed) throws IOException {
    Path backing = dir.resolve("backing");
    this.lazyfs = new LazyFs(lazyfsBinary, dir.resolve("mnt"), backing, dir.resolve("lazyfs"),
        Boolean.parseBoolean(System.getProperty("powercuts.opLog", "true")));
    this.vault = lazyfs.mount().resolve("vault");
    this.index = lazyfs.mount().resolve("index");
    this.serverLog = dir.resolve("server.log");
    this.random = new Random(seed);
    this.cuts = Integer.getInteger("powercuts.cuts", 120);
    this.writers = Integer.getInteger("powercuts.writers", 6);
    this.documents = Integer.getInteger("powercuts.documents", 4);
    this.createEvery = Integer.getInteger("powercuts.createEvery", 50);
    this.replayShare = Double.parseDouble(System.getProperty("powercuts.replayShare", "0.2"));
    this.lagMs = System.getProperty("powercuts.lagMs", "20");
    this.writeMs = Integer.getInteger("powercuts.writeMs", 4000);
    String kind = System.getProperty("powercuts.only", "");
    this.only = kind.isBlank() ? null : Cut.valueOf(kind);
  }

  public static void main(String[] args) throws Exception {
    String binary = System.getProperty("powercuts.lazyfs", "");
    if (!Files.exists(Path.of("/dev/fuse"))) {
      System.out.println("SKIP power cuts on LazyFS: /dev/fuse does not exist here");
      return;
    }
    if (binary.isBlank() || !Files.isExecutable(Path.of(binary))) {
      System.out.println("SKIP power cuts on LazyFS: no LazyFS binary (-Dpowercuts.lazyfs=" + binary + ")");
      return;
    }
    Path dir = Path.of(System.getProperty("powercuts.dir", "target/power-cuts")).toAbsolutePath().normalize();
    long seed = Long.getLong("powercuts.seed", System.nanoTime() % 1_000_000);
    LazyFs.unmountIfMounted(dir.resolve("mnt"));
    dev.gram.testing.Trees.delete(dir);
    Files.createDirectories(dir);
    PowerCutSoak soak = new PowerCutSoak(Path.of(binary), dir, seed);
    System.out.printf("power cuts on LazyFS: %d cuts, %d writers on %d documents per cut, --checkpoint-lag-ms %s,"
        + " seed %d, work folder %s%n", soak.cuts, soak.writers, soak.documents, soak.lagMs, seed, dir);
    boolean clean;
    try {
      clean = soak.run();
    } finally {
      soak.lazyfs.unmount();
    }
    System.exit(clean ? 0 : 1);
  }

  private boolean run() throws Exception {
    long started = System.nanoTime();
    int cut = 0;
    while (cut < cuts) {
      cut++;
      lazyfs.start();
      boolean replay = cut > 1 && logHasRecords() && random.nextDouble() < replayShare;
      long t0 = System.nanoTime();
      String what;
      int acked = 0;
      if (replay) {
        Cut kind = Cut.DURING_REPLAY.get(random.nextInt(Cut.DURING_REPLAY.size()));
        what = "replay, " + describe(kind, cutDuringReplay(kind));
        replayCuts++;
      } else {
        Cut kind = only != null ? only : Cut.UNDER_LOAD.get(random.nextInt(Cut.UNDER_LOAD.size()));
        Outcome o = cutUnderLoad(kind, cut);
        acked = o.acknowledged;
        what = describe(kind, o.fired) + String.format(Locale.ROOT, " (%.1f s)", o.seconds);
      }
      lazyfs.unmount();
      OpLog.Result ops = OpLog.read(lazyfs.log());
      int neverSynced = ops.writes();
      this.neverSynced += neverSynced;
      keepOperationLog(ops, "cut-" + cut);
      DiskCheck.Result r = DiskCheck.run(lazyfs.backing().resolve("vault"), ledger);
      Map<String, Long> said = ledger.takeAnswers();
      said.forEach((k, n) -> answers.merge(k, n, Long::sum));
      onlyInLog += r.onlyInLog();
      List<String> newLost = addNew(lost, r.lost());
      List<String> newDuplicated = addNew(duplicated, r.duplicated());
      List<String> newFailing = addNew(failing, r.failing());
      System.out.printf(Locale.ROOT, "cut %3d/%d  %-52s acked %4d (total %,7d)  only in log %3d  lost %d  duplicated %d"
              + "  failing %d  log writes never synced %d  [%.1f s]%s%n",
          cut, cuts, what, acked, ledger.acknowledgedWrites(), r.onlyInLog(), newLost.size(), newDuplicated.size(),
          r.failing().size(), neverSynced, (System.nanoTime() - t0) / 1e9, unusualAnswers(said));
      ops.segments().forEach(s -> System.out.println("    UNSYNCED " + s));
      newLost.forEach(s -> System.out.println("    LOST " + s));
      newDuplicated.forEach(s -> System.out.println("    DUPLICATED " + s));
      newFailing.forEach(s -> System.out.println("    FAILING " + s));
    }
    boolean finalClean = cleanStop();
    System.out.println(summary((System.nanoTime() - started) / 1e9));
    return finalClean && lost.isEmpty() && duplicated.isEmpty() && failing.isEmpty();
  }

  record Outcome(boolean fired, int acknowledged, double seconds) {}

  /** Writers under load, then the cut; returns whether a targeted fault fired. */
  private Outcome cutUnderLoad(Cut kind, int cut) throws Exception {
    ServerProcess server = startServer();
    Writers w = new Writers(new StatelessCalls(server.mcpUrl(), "power-cut"), String.format("soak/c%03d", cut),
        documents, ledger, cut, createEvery, lazyfs::alive);
    w.createDocuments();
    long t0 = System.nanoTime();
    OpLog.Tail operations = new OpLog.Tail(lazyfs.log());
    operations.poll(); // what the start and the creates did is history, not this cut's moment
    w.start(writers, random.nextLong());
    boolean fired = false;
    if (kind == Cut.LOG_LEFT_UNSYNCED) {
      fired = cutWhenLogWritesAreLeftUnsynced(operations);
    } else {
      Thread.sleep(writeMs / 10 + random.nextInt(writeMs));
      if (kind.targeted()) {
        lazyfs.armCrash(kind.timing, kind.op, kind.from, kind.to);
        fired = lazyfs.awaitDeath(FAULT_TIMEOUT);
      }
    }
    if (fired) {
      Thread.sleep(ANSWERS_WHILE_GONE_MS);
    }
    server.kill();
    double seconds = (System.nanoTime() - t0) / 1e9;
    w.stop();
    server.close();
    return new Outcome(cutPowerIfStillOn(kind, fired), w.acknowledged(), seconds);
  }

  /** Follows LazyFS's operations and kills it as soon as a log fsync leaves older writes behind. */
  private boolean cutWhenLogWritesAreLeftUnsynced(OpLog.Tail operations) throws Exception {
    long deadline = System.nanoTime() + FAULT_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (operations.poll()) {
        lazyfs.kill();
        return true;
      }
      Thread.sleep(1);
    }
    return false;
  }

  /** Starts the server on what the last cut left and cuts again while it replays; fired or not. */
  private boolean cutDuringReplay(Cut kind) throws Exception {
    if (kind.targeted()) {
      lazyfs.armCrash(kind.timing, kind.op, kind.from, kind.to);
    }
    List<String> command = ServerProcess.command(List.of("-Xmx1g"), vault, index, serverArgs());
    long logFrom = Files.exists(serverLog) ? Files.size(serverLog) : 0;
    Process server = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(serverLog.toFile())).start();
    boolean fired = false;
    if (kind.targeted()) {
      fired = lazyfs.awaitDeath(REPLAY_FAULT_TIMEOUT);
    } else {
      // The vault loads its documents, and so replays the log, a second after HTTP listens.
      awaitListening(server, logFrom);
      Thread.sleep(random.nextInt(2500));
    }
    server.destroyForcibly().waitFor();
    return cutPowerIfStillOn(kind, fired);
  }

  /**
   * After the server was killed: drops LazyFS's cache unless LazyFS died already, which a
   * targeted fault may also do just after its wait gave up. Returns whether a fault fired.
   */
  private boolean cutPowerIfStillOn(Cut kind, boolean fired) throws IOException {
    if (lazyfs.alive()) {
      try {
        lazyfs.clearCache();
        return false;
      } catch (IOException e) {
        if (lazyfs.alive()) {
          // LazyFS took the command and never finished it (seen once in 38 cuts, after a
          // SIGKILL of the server mid-write). Killing LazyFS is a power cut too: what it cached
          // dies with it.
          System.out.println("    LazyFS did not clear its cache within 30 s; killed it instead");
          try {
            lazyfs.kill();
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw e;
          }
        }
      }
    }
    return fired || kind.targeted();
  }

  private void awaitListening(Process server, long logFrom) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (server.isAlive() && System.nanoTime() < deadline) {
      try (RandomAccessFile f = new RandomAccessFile(serverLog.toFile(), "r")) {
        byte[] b = new byte[(int) Math.max(0, f.length() - logFrom)];
        f.seek(logFrom);
        f.readFully(b);
        if (new String(b, StandardCharsets.UTF_8).contains("gram-mcp: listening on")) {
          return;
        }
      }
      Thread.sleep(20);
    }
  }

  /** A last clean start and stop: the files then hold everything and the log is empty. */
  private boolean cleanStop() throws Exception {
    lazyfs.start();
    boolean ok = true;
    try (ServerProcess server = startServer()) {
      StatelessCalls calls = new StatelessCalls(server.mcpUrl(), "power-cut-check");
      Map<String, Integer> highest = new HashMap<>();
      ledger.patches.values().forEach(p -> highest.merge(p.path(), p.rev(), Math::max));
      for (Map.Entry<String, Integer> e : highest.entrySet()) {
        JsonObject got = calls.call("gram_get", new JsonObject().put("path", e.getKey()).put("entity", "doc"));
        JsonObject doc = got.getJsonObject("doc");
        if (doc == null || doc.getInteger("rev") < e.getValue()) {
          System.out.println("    AFTER RESTART " + e.getKey() + " answers " + got.encode() + ", acknowledged up to rev "
              + e.getValue());
          ok = false;
        }
      }
      if (server.stop() != 0) {
        System.out.println("    the clean stop exited with a non-zero status");
        ok = false;
      }
    }
    lazyfs.unmount();
    OpLog.Result ops = OpLog.read(lazyfs.log());
    int neverSynced = ops.writes();
    keepOperationLog(ops, "clean-stop");
    ops.segments().forEach(s -> System.out.println("    UNSYNCED " + s));
    DiskCheck.Result r = DiskCheck.run(lazyfs.backing().resolve("vault"), ledger);
    List<String> segments = segmentsWithRecords();
    System.out.printf("after a clean start and stop: lost %d, duplicated %d, failing %d, only in log %d,"
        + " log segments with records %d, log writes never synced %d%n", r.lost().size(), r.duplicated().size(),
        r.failing().size(), r.onlyInLog(), segments.size(), neverSynced);
    addNew(lost, r.lost());
    addNew(duplicated, r.duplicated());
    addNew(failing, r.failing());
    return ok && r.clean() && r.onlyInLog() == 0 && segments.isEmpty();
  }

  /** Keeps LazyFS's log of a session whose log writes were not all synced (the next mount starts a new one). */
  private void keepOperationLog(OpLog.Result ops, String name) throws IOException {
    if (ops.writes() > 0 && Files.exists(lazyfs.log())) {
      Files.copy(lazyfs.log(), lazyfs.log().resolveSibling("operations-" + name + ".log"));
    }
  }

  private ServerProcess startServer() {
    return ServerProcess.start(vault, index, serverLog, List.of("-Xmx1g"), serverArgs());
  }

  private String[] serverArgs() {
    return new String[] {"--no-stdio", "--no-welcome", "--no-semantic", "--host", "127.0.0.1",
        "--checkpoint-lag-ms", lagMs};
  }

  private String describe(Cut kind, boolean fired) {
    byKind.computeIfAbsent(kind, k -> new int[2])[fired || !kind.targeted() ? 0 : 1]++;
    return kind.label + (kind.targeted() && !fired ? " (did not fire: random)" : "");
  }

  /** Answers given after LazyFS died, and any answer but a success or contention. */
  private String unusualAnswers(Map<String, Long> said) {
    StringBuilder sb = new StringBuilder();
    said.forEach((k, n) -> {
      if (k.startsWith(Ledger.Phase.FS_GONE.label) || !expected(k)) {
        sb.append("\n    answered ").append(n).append(" × ").append(k);
      }
    });
    return sb.toString();
  }

  /** Answers that are part of normal contention, not of the cut. */
  private static boolean expected(String answer) {
    return answer.contains("STALE_REVISION");
  }

  private boolean logHasRecords() throws IOException {
    return !segmentsWithRecords().isEmpty();
  }

  /** Segments of the log on the backing folder holding more than their 8-byte header. */
  private List<String> segmentsWithRecords() throws IOException {
    Path log = lazyfs.backing().resolve("vault/.gram-wal");
    if (!Files.isDirectory(log)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(log)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".wal")).filter(p -> p.toFile().length() > 8)
          .map(p -> p.getFileName().toString()).toList();
    }
  }

  private String summary(double seconds) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%n== %d power cuts in %.0f s (%d of them during a replay) ==%n", cuts, seconds,
        replayCuts));
    sb.append("| where the power was cut | cuts | targeted fault did not fire |\n|---|---|---|\n");
    byKind.forEach((k, n) -> sb.append("| ").append(k.label).append(" | ").append(n[0] + n[1]).append(" | ")
        .append(n[1]).append(" |\n"));
    sb.append(String.format(Locale.ROOT, "acknowledged writes: %,d (%,d patches, %,d creates)%n",
        ledger.acknowledgedWrites(), ledger.patches.size(), ledger.creates.size()));
    sb.append(String.format(Locale.ROOT, "acknowledged writes only in the log at a cut (summed over cuts): %,d%n",
        onlyInLog));
    sb.append(String.format(Locale.ROOT, "log writes never fsynced though a newer segment was (LazyFS's operation log,"
        + " summed over cuts): %,d%n", neverSynced));
    sb.append("lost: ").append(lost.size()).append(", duplicated: ").append(duplicated.size())
        .append(", documents failing to verify: ").append(failing.size()).append('\n');
    sb.append("answers other than success (STALE_REVISION is contention between writers):\n");
    answers.entrySet().stream().sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
        .forEach(e -> sb.append(String.format(Locale.ROOT, "  %,8d  %s%n", e.getValue(), e.getKey())));
    return sb.toString();
  }

  /** Adds the findings not there yet and returns them. */
  private static List<String> addNew(List<String> all, List<String> found) {
    List<String> added = new ArrayList<>();
    for (String s : found) {
      String key = subject(s);
      if (all.stream().noneMatch(a -> subject(a).equals(key))) {
        all.add(s);
        added.add(s);
      }
    }
    return added;
  }

  /** What a finding is about: its request_id, created path or document, without the details. */
  private static String subject(String finding) {
    return finding.split(" \\(| ×|: ", 2)[0];
  }
}
