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
 * Kills a child JVM with SIGKILL at random moments while it writes, 20 times, and checks after
 * each kill that every document still loads, passes the integrity check, and holds every write
 * that was acknowledged before the kill.
 */
class CrashTest {
  static final List<String> DOCS = List.of("a/one.gram", "a/two.gram", "a/four.gram", "b/three.gram");

  @TempDir Path dir;

  @Test
  void acknowledgedWritesSurviveSigkill() throws Exception {
    Random random = new Random(42);
    List<String[]> acked = new ArrayList<>();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (int round = 0; round < 20; round++) {
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
    }
    assertThat(acked).as("writes acknowledged over all rounds").hasSizeGreaterThan(20);
  }
}
