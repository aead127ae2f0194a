package dev.gram.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.FreePorts;
import dev.gram.testing.ServerProcess;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests that arrive while the server starts are answered: four threads send {@code GET
 * /healthz} from the moment the process is spawned, through its start and for a second after
 * it first answers, {@value #STARTS} times. A connection refused before the port listens is
 * fine; a request accepted and then left unanswered for 5 s is the defect this guards against.
 */
class StartupHammerIT {
  static final int STARTS = 5;

  @TempDir Path dir;

  @Test
  void everyRequestSentDuringStartIsAnswered() throws Exception {
    int starts = Integer.getInteger("gram.hammer.starts", STARTS);
    ConcurrentLinkedQueue<String> unanswered = new ConcurrentLinkedQueue<>();
    AtomicInteger answered = new AtomicInteger();
    for (int s = 0; s < starts; s++) {
      int port = FreePorts.one();
      Path run = Files.createDirectories(dir.resolve("run-" + s));
      List<String> cmd = ServerProcess.command(run.resolve("vault"), run.resolve("index"),
          "--port", Integer.toString(port), "--no-stdio", "--no-semantic");
      Process p = new ProcessBuilder(cmd).redirectError(run.resolve("stderr.log").toFile())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      URI healthz = URI.create("http://127.0.0.1:" + port + "/healthz");
      int before = unanswered.size();
      long firstAnswer[] = {0};
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Thread th = new Thread(() -> {
          HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(5)).build();
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (System.nanoTime() < deadline && p.isAlive()) {
            long first;
            synchronized (firstAnswer) {
              first = firstAnswer[0];
            }
            if (first != 0 && System.nanoTime() - first > TimeUnit.SECONDS.toNanos(1)) {
              return;
            }
            try {
              HttpResponse<String> r = client.send(HttpRequest.newBuilder(healthz).timeout(Duration.ofSeconds(5)).build(),
                  HttpResponse.BodyHandlers.ofString());
              assertThat(r.statusCode()).isEqualTo(200);
              answered.incrementAndGet();
              synchronized (firstAnswer) {
                if (firstAnswer[0] == 0) {
                  firstAnswer[0] = System.nanoTime();
                }
              }
            } catch (ConnectException e) {
              Thread.onSpinWait(); // not listening yet
            } catch (HttpTimeoutException e) {
              unanswered.add("a request accepted and not answered within 5 s: " + e.getMessage());
            } catch (Exception e) {
              if (!(e.getCause() instanceof ConnectException)) {
                unanswered.add(e.toString());
              }
            }
          }
        });
        th.start();
        threads.add(th);
      }
      for (Thread th : threads) {
        th.join();
      }
      p.destroy();
      p.waitFor(30, TimeUnit.SECONDS);
      p.destroyForcibly();
      assertThat(firstAnswer[0]).as("the server of start %d answered", s).isNotZero();
      if (unanswered.size() > before) {
        String log = Files.readString(run.resolve("stderr.log"));
        unanswered.add("start " + s + " stderr: " + log.substring(Math.max(0, log.length() - 4000)));
      }
    }
    assertThat(unanswered).as("%d requests answered", answered.get()).isEmpty();
  }
}
