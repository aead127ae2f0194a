package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Shutdown's wait for running tools: driven by the last call finishing, bounded by a timeout. */
class RunningToolsTest {
  private Vertx vertx;
  private RunningTools running;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    running = new RunningTools(vertx, dev.gram.async.Foreground.none());
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static void await(Future<Void> f) throws Exception {
    f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void withNothingRunningADrainIsDoneAtOnce() {
    assertThat(running.drain(Duration.ofSeconds(30)).isComplete()).isTrue();
  }

  @Test
  void aDrainCompletesWhenTheLastCallFinishesLongBeforeItsTimeout() throws Exception {
    running.started();
    running.started();
    Future<Void> first = running.drain(Duration.ofMinutes(5));
    Future<Void> second = running.drain(Duration.ofMinutes(5));
    running.finished();
    assertThat(running.count()).isEqualTo(1);
    Thread.sleep(50);
    assertThat(first.isComplete()).as("one call still runs").isFalse();

    AtomicBoolean onVertxThread = new AtomicBoolean();
    first.onComplete(v -> onVertxThread.set(Vertx.currentContext() != null));
    long t0 = System.nanoTime();
    running.finished();
    await(first);
    await(second);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    assertThat(onVertxThread.get()).as("completes on a Vert.x context, not the tool's thread").isTrue();
    assertThat(running.count()).isZero();
  }

  @Test
  void aDrainGivesUpAfterItsTimeoutAndLeavesTheCountAlone() throws Exception {
    running.started();
    long t0 = System.nanoTime();
    await(running.drain(Duration.ofMillis(100)));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(90));
    assertThat(running.count()).isEqualTo(1);
    running.finished();
    assertThat(running.drain(Duration.ofSeconds(1)).isComplete()).isTrue();
  }
}
