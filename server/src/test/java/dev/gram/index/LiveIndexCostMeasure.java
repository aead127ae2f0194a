package dev.gram.index;

import dev.gram.store.CommitReceipt;
import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonArray;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the live index costs per commit on a large document: one writer patches a document of
 * {@code records} records (each patch adds a record, or sets a field of one, in turn), and the CPU
 * of the index's live thread and of the commit threads over those patches is printed per commit.
 * Not a test: run its {@code main} on the test class path,
 * {@code java -cp … dev.gram.index.LiveIndexCostMeasure DIR [records] [patches]}.
 */
public final class LiveIndexCostMeasure {
  private LiveIndexCostMeasure() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory(Files.createDirectories(Path.of(args[0])), "live-");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 3_000;
    int patches = args.length > 2 ? Integer.parseInt(args[2]) : 3_000;
    try (GramTestServer s = GramTestServer.start(dir.resolve("vault"), "--no-semantic")) {
      CommitReceipt r = Fixtures.create(s, "log.gram", "Log", "# Log\n\nWhat happened.");
      int next = 0;
      while (next < records) {
        JsonArray ops = new JsonArray();
        for (int k = 0; k < 100 && next < records; k++, next++) {
          ops.add(Fixtures.add(Fixtures.record("event", "e" + next, "Event " + next + " of the log",
              "d", "The team looked at item " + next + " and wrote down what it saw.")));
        }
        r = Fixtures.patch(s, "log.gram", r.rev(), r.hash(), "fill-" + next, ops);
      }
      Fixtures.awaitIndexed(s);
      for (int round = 0; round < 3; round++) {
        long[] before = cpu();
        long t0 = System.nanoTime();
        for (int i = 0; i < patches; i++) {
          JsonArray ops = new JsonArray();
          if (i % 2 == 0) {
            ops.add(Fixtures.add(Fixtures.record("event", "n" + round + "-" + i, "New event " + i,
                "d", "Something new, number " + i + ".")));
          } else {
            ops.add(Fixtures.set("e" + (i * 7919 % records), "status", "seen " + i));
          }
          r = Fixtures.patch(s, "log.gram", r.rev(), r.hash(), "p" + round + "-" + i, ops);
        }
        Fixtures.awaitIndexed(s);
        long[] after = cpu();
        System.out.printf(Locale.ROOT,
            "round %d: %d records, %d patches in %.0f ms: live index %.3f ms CPU per commit, commits (gram-io) %.3f ms%n",
            round, records + round * patches / 2, patches, (System.nanoTime() - t0) / 1e6,
            (after[0] - before[0]) / 1e6 / patches, (after[1] - before[1]) / 1e6 / patches);
      }
    }
  }

  /** CPU so far of the live index's thread and of the commit threads, in ns. */
  private static long[] cpu() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long live = 0;
    long io = 0;
    for (var t : Thread.getAllStackTraces().keySet()) {
      long c = mx.getThreadCpuTime(t.getId());
      if (t.getName().startsWith("gram-index-live")) {
        live += c;
      } else if (t.getName().startsWith("gram-io")) {
        io += c;
      }
    }
    return new long[] {live, io};
  }
}
