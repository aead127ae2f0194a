package dev.gram.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mailbox behind every write actor: order, no overlap, and a hold that needs no thread. */
class SerialExecutorTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void runsTasksOneAtATimeInOrder() throws Exception {
    SerialExecutor mailbox = new SerialExecutor(pool);
    List<Integer> seen = new CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
    CountDownLatch done = new CountDownLatch(1000);
    for (int i = 0; i < 1000; i++) {
      int n = i;
      mailbox.execute(() -> {
        assertThat(inside.incrementAndGet()).isEqualTo(1);
        seen.add(n);
        inside.decrementAndGet();
        done.countDown();
      });
    }
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(seen).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 1000).boxed().toList());
  }

  @Test
  void aHoldKeepsLaterTasksWaitingUntilReleasedWithoutAThread() throws Exception {
    SerialExecutor mailbox = new SerialExecutor(Executors.newSingleThreadExecutor());
    AtomicReference<Runnable> release = new AtomicReference<>();
    List<String> seen = new CopyOnWriteArrayList<>();
    CountDownLatch held = new CountDownLatch(1);
    mailbox.execute(() -> {
      release.set(mailbox.hold());
      seen.add("first");
      held.countDown();
    });
    CountDownLatch second = new CountDownLatch(1);
    mailbox.execute(() -> {
      seen.add("second");
      second.countDown();
    });
    assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
    // The only pool thread is free, yet the second task waits for the release.
    assertThat(second.await(300, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(mailbox.depth()).isEqualTo(1);
    release.get().run();
    release.get().run(); // a second release changes nothing
    assertThat(second.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(seen).containsExactly("first", "second");
  }

  @Test
  void aHoldReleasedBeforeItsTaskEndsDoesNotStartASecondDrain() throws Exception {
    SerialExecutor mailbox = new SerialExecutor(pool);
    java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean overlapped = new java.util.concurrent.atomic.AtomicBoolean();
    CountDownLatch done = new CountDownLatch(200);
    for (int i = 0; i < 200; i++) {
      boolean hold = i % 2 == 0;
      mailbox.execute(() -> {
        if (inside.incrementAndGet() != 1) {
          overlapped.set(true);
        }
        if (hold) {
          mailbox.hold().run(); // released at once, inside the task
        }
        Thread.onSpinWait();
        inside.decrementAndGet();
        done.countDown();
      });
    }
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(overlapped).isFalse();
  }
}
