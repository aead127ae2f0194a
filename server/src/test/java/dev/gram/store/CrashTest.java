package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM with SIGKILL at random moments while it writes through the write-ahead log
 * and checkpoints every few milliseconds, {@value #DEFAULT_ROUNDS} times (or {@code
 * -Dgram.crash.rounds=N}; the {@code soak} profile runs 200), and checks after each kill that
 * every document still loads, passes the integrity check, and holds every write that was
 * acknowledged before the kill, and that a clean start afterwards leaves no log behind.
 */
class CrashTest {
  static final List<String> DOCS = List.of("a/one.gram", "a/two.gram", "a/four.gram", "b/three.gram");

  static final int DEFAULT_ROUNDS = 20;

  @TempDir Path dir;

  @Test
  void acknowledgedWritesSurviveSigkill() throws Exception {
    Random random = new Random(42);
    List<String[]> acked = new ArrayList<>();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    int rounds = Integer.getInteger("gram.crash.rounds", DEFAULT_ROUNDS);
    for (int round = 0; round < rounds; round++) {
      Process p =
          new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
              "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
              CrashWriter.class.getName(), dir.toString(), "k" + round)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String first = in.readLine();
      assertThat(first).as("child start in round %d", round).isEqualTo("READY");
      java.util.concurrent.CountDownLatch firstAck = new java.util.concurrent.CountDownLatch(1);
      Thread reader = new Thread(() -> {
        try {
          String line;
          while ((line = in.readLine()) != null) {
            if (line.startsWith("ACK ")) {
              String[] parts = line.split(" ");
              synchronized (acked) {
                acked.add(new String[] {parts[1], parts[2]});
              }
              firstAck.countDown();
            }
          }
        } catch (java.io.IOException ignored) {
          // the child died
        }
      });
      reader.start();
      // Kill while writes are flowing: a random moment after the first acknowledgement, so that
      // a slow start on a loaded machine does not turn the test into one that kills an idle JVM.
      assertThat(firstAck.await(60, TimeUnit.SECONDS)).as("a write acknowledged in round %d", round).isTrue();
      Thread.sleep(random.nextInt(300));
      p.destroyForcibly(); // SIGKILL on Linux
      p.waitFor(10, TimeUnit.SECONDS);
      reader.join(5_000);

      try (TestVault t = TestVault.open(dir)) {
        for (String d : DOCS) {
          DocSnapshot s = t.vault.peek(d);
          if (s == null) {
            continue; // killed before its create was acknowledged
          }
          assertThat(s.failure()).as("%s after round %d", d, round).isNull();
        }
        synchronized (acked) {
          for (String[] a : acked) {
            DocSnapshot s = t.read(a[0]);
            assertThat(s.state().record("e-" + a[1]))
                .as("acknowledged write %s in %s after round %d", a[1], a[0], round)
                .isNotNull();
          }
        }
      }
      // The clean stop after recovery folded everything into the files.
      assertThat(WriteAheadLog.segmentFiles(dir.resolve(WriteAheadLog.FOLDER)))
          .as("log segments after a clean stop in round %d", round).isEmpty();
    }
    assertThat(acked).as("writes acknowledged over all rounds").hasSizeGreaterThan(20);
  }
}
