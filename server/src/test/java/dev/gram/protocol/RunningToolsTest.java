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
    running.started(false);
    running.started(false);
    Future<Void> first = running.drain(Duration.ofMinutes(5));
    Future<Void> second = running.drain(Duration.ofMinutes(5));
    running.finished(false);
    assertThat(running.count()).isEqualTo(1);
    Thread.sleep(50);
    assertThat(first.isComplete()).as("one call still runs").isFalse();

    AtomicBoolean onVertxThread = new AtomicBoolean();
    first.onComplete(v -> onVertxThread.set(Vertx.currentContext() != null));
    long t0 = System.nanoTime();
    running.finished(false);
    await(first);
    await(second);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    assertThat(onVertxThread.get()).as("completes on a Vert.x context, not the tool's thread").isTrue();
    assertThat(running.count()).isZero();
  }

  @Test
  void aDrainGivesUpAfterItsTimeoutAndLeavesTheCountAlone() throws Exception {
    running.started(false);
    long t0 = System.nanoTime();
    await(running.drain(Duration.ofMillis(100)));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(90));
    assertThat(running.count()).isEqualTo(1);
    running.finished(false);
    assertThat(running.drain(Duration.ofSeconds(1)).isComplete()).isTrue();
  }

  @Test
  void theServersOwnCallsAreDrainedButDoNotMakeTheForegroundBusy() throws Exception {
    dev.gram.async.Foreground foreground = dev.gram.async.Foreground.none();
    RunningTools tools = new RunningTools(vertx, foreground);
    tools.started(true);
    assertThat(foreground.inFlight()).as("background work does not give way to the warm-up").isZero();
    Future<Void> drained = tools.drain(Duration.ofMinutes(5));
    assertThat(drained.isComplete()).as("a drain still waits for it").isFalse();
    tools.finished(true);
    await(drained);
    assertThat(foreground.busy()).isFalse();
    tools.started(false);
    assertThat(foreground.inFlight()).as("an agent's call").isEqualTo(1);
    tools.finished(false);
  }
}
