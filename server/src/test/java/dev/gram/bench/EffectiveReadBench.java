package dev.gram.bench;

import dev.gram.format.EffectiveState;
import dev.gram.format.GramDocument;
import dev.gram.store.DocSnapshot;
import dev.gram.store.Vault;
import dev.gram.store.VaultPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;

/**
 * A read as of an effective time against the length of the document's history: one document of
 * 10 or 200 tasks, {@code set} commits one after another (each changes one field of one of seven
 * tasks), and at 1,000, 5,000 and 20,000 revisions the state as of a time after every revision
 * ({@link EffectiveState#at}, what {@code effective_at} reads), in process, p50 and the slowest of
 * 15 reads after 5 unmeasured. The same read at a revision costs microseconds, so the figure is
 * what folding the history costs. Run: {@code mvn -B -Pbench -DskipTests package exec:exec
 * -Dbench.main=dev.gram.bench.EffectiveReadBench}.
 */
public final class EffectiveReadBench {
  private EffectiveReadBench() {}

  public static void main(String[] args) throws Exception {
    Path base = Files.createDirectories(Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath());
    int[] marks = {1_000, 5_000, 20_000};
    System.out.println("| records | revisions | effective-time read p50 | slowest |");
    System.out.println("|---|---|---|---|");
    for (int records : new int[] {10, 200}) {
      Path dir = Files.createTempDirectory(base, "effective-");
      Vault vault = CommitCpuBench.open(dir);
      try {
        VaultPath vp = CommitCpuBench.seeded(vault, records);
        int done = 0;
        for (int mark : marks) {
          for (; done < mark; done++) {
            CommitCpuBench.commit(vault, vp, "e-" + done, CommitCpuBench.set(done));
          }
          DocSnapshot s = CommitCpuBench.await(vault.read(vp));
          Instant later = Instant.now().plusSeconds(60);
          double[] ms = new double[15];
          for (int i = -5; i < ms.length; i++) {
            long t0 = System.nanoTime();
            GramDocument d = EffectiveState.at(s.history(), later, s.rev());
            if (!d.equals(s.state())) {
              throw new AssertionError("the state as of now is not the head state");
            }
            if (i >= 0) {
              ms[i] = (System.nanoTime() - t0) / 1e6;
            }
          }
          Arrays.sort(ms);
          System.out.println(String.format(Locale.ROOT, "| %d | %,d | %.2f ms | %.2f ms |", records, s.rev() + 1,
              ms[ms.length / 2], ms[ms.length - 1]));
        }
      } finally {
        CommitCpuBench.await(vault.close());
      }
    }
  }
}
