package dev.gram.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Background work giving way to the agents' calls: how long it waits, and when it resumes. */
class ForegroundTest {

  @Test
  void withNoCallInFlightBackgroundWorkGoesOnAtOnce() throws Exception {
    Foreground f = new Foreground();
    assertThat(f.busy()).isFalse();
    assertThat(f.awaitQuiet(10_000)).isLessThan(1_000);
    AtomicInteger ran = new AtomicInteger();
    f.whenIdle(ran::incrementAndGet);
    assertThat(ran).hasValue(1);
  }

  @Test
  void aWaitingThreadResumesWhenTheLastCallEndsNotAtItsLimit() throws Exception {
    Foreground f = new Foreground();
    f.started();
    f.started();
    AtomicLong waited = new AtomicLong(-1);
    CountDownLatch waiting = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      waiting.countDown();
      try {
        waited.set(f.awaitQuiet(60_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    t.start();
    waiting.await();
    f.ended();
    // One call is still in flight: the background thread is still held.
    t.join(200);
    assertThat(t.isAlive()).isTrue();
    f.ended();
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
    assertThat(waited.get()).isBetween(0L, 10_000L);
  }

  @Test
  void aCallThatNeverEndsHoldsBackgroundWorkOnlyForItsLimit() throws Exception {
    Foreground f = new Foreground();
    f.started();
    long t0 = System.nanoTime();
    f.awaitQuiet(150);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertThat(ms).isBetween(140L, 10_000L);
    assertThat(f.busy()).isTrue();
  }

  @Test
  void workHandedOverWhileCallsRunStartsOnceWhenTheLastOneEnds() {
    Foreground f = new Foreground();
    f.started();
    f.started();
    AtomicInteger ran = new AtomicInteger();
    f.whenIdle(ran::incrementAndGet);
    f.ended();
    assertThat(ran).hasValue(0);
    f.ended();
    assertThat(ran).hasValue(1);
    f.started();
    f.ended();
    assertThat(ran).hasValue(1);
  }

  @Test
  void aTaskThatFailsDoesNotFailTheCallThatEnds() {
    Foreground f = new Foreground();
    f.started();
    AtomicInteger ran = new AtomicInteger();
    f.whenIdle(() -> {
      throw new IllegalStateException("boom");
    });
    f.whenIdle(ran::incrementAndGet);
    f.ended();
    assertThat(ran).hasValue(1);
    assertThat(f.inFlight()).isZero();
  }
}
