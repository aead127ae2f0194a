package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ResourceChange;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A subscriber's stream on its own: offering never waits for delivery, pending changes coalesce
 * per document and stay bounded, a congested transport is waited out, and closing unregisters.
 */
class SubscriberStreamTest {

  /** A feed that tells its listeners synchronously, as the store's commit thread does. */
  static final class Feed implements ChangeFeed {
    final List<Consumer<ResourceChange>> listeners = new CopyOnWriteArrayList<>();

    void tell(ResourceChange c) {
      listeners.forEach(l -> l.accept(c));
    }

    @Override
    public Registration listen(Consumer<ResourceChange> listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    @Override
    public int listeners() {
      return listeners.size();
    }
  }

  static ResourceChange change(String path, int rev) {
    return new ResourceChange(
        "gram://" + path, path, rev, "h" + rev, "w", "+0 ~1 -0", ResourceChange.Kind.UPDATED);
  }

  @Test
  void aBlockedDeliveryNeitherBlocksTheCommitThreadNorGrowsABacklog() throws Exception {
    Feed feed = new Feed();
    CountDownLatch release = new CountDownLatch(1);
    Map<String, Integer> latest = new ConcurrentHashMap<>();
    CountDownLatch firstDelivery = new CountDownLatch(1);
    SubscriberStream stream =
        new SubscriberStream(
            feed,
            c -> true,
            false,
            Outbound.of(m -> {}),
            (changes, list) -> {
              firstDelivery.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              changes.forEach(c -> latest.merge(c.path(), c.rev(), Math::max));
            });
    feed.tell(change("p/a.gram", 0));
    assertThat(firstDelivery.await(10, TimeUnit.SECONDS)).isTrue();
    // The delivery is stuck; 100,000 commits to ten documents still return at once.
    long start = System.nanoTime();
    for (int i = 1; i <= 100_000; i++) {
      feed.tell(change("p/d" + (i % 10) + ".gram", i));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(stream.pending()).isEqualTo(10);
    release.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (latest.size() < 11 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    // Each document arrives once more, at its latest revision.
    assertThat(latest.get("p/d0.gram")).isEqualTo(100_000);
    assertThat(latest.get("p/d9.gram")).isEqualTo(99_999);
    stream.close();
  }

  @Test
  void pendingDocumentsAreBoundedAndTheOldestIsDropped() throws Exception {
    Feed feed = new Feed();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch firstDelivery = new CountDownLatch(1);
    SubscriberStream stream =
        new SubscriberStream(
            feed,
            c -> true,
            false,
            Outbound.of(m -> {}),
            (changes, list) -> {
              firstDelivery.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    feed.tell(change("first.gram", 0));
    assertThat(firstDelivery.await(10, TimeUnit.SECONDS)).isTrue();
    int many = SubscriberStream.MAX_DOCUMENTS + 500;
    for (int i = 0; i < many; i++) {
      feed.tell(change("d" + i + ".gram", 1));
    }
    assertThat(stream.pending()).isEqualTo(SubscriberStream.MAX_DOCUMENTS);
    assertThat(stream.dropped()).isEqualTo(500);
    release.countDown();
    stream.close();
  }

  @Test
  void aCongestedTransportIsWaitedOutAndNothingIsLost() throws Exception {
    Feed feed = new Feed();
    AtomicBoolean congested = new AtomicBoolean(true);
    List<ResourceChange> got = new CopyOnWriteArrayList<>();
    Outbound out =
        new Outbound() {
          @Override
          public void accept(io.vertx.core.json.JsonObject m) {}

          @Override
          public boolean congested() {
            return congested.get();
          }
        };
    SubscriberStream stream =
        new SubscriberStream(feed, c -> true, false, out, (changes, list) -> got.addAll(changes));
    feed.tell(change("a.gram", 1));
    feed.tell(change("a.gram", 2));
    Thread.sleep(100);
    assertThat(got).isEmpty();
    congested.set(false);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (got.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(got).extracting(ResourceChange::rev).containsExactly(2);
    stream.close();
  }

  @Test
  void closingUnregistersFromTheFeedAndStopsDelivery() {
    Feed feed = new Feed();
    List<ResourceChange> got = new CopyOnWriteArrayList<>();
    SubscriberStream stream =
        new SubscriberStream(
            feed, c -> true, false, Outbound.of(m -> {}), (changes, list) -> got.addAll(changes));
    assertThat(feed.listeners()).isEqualTo(1);
    stream.close();
    stream.close();
    assertThat(feed.listeners()).isZero();
    feed.tell(change("a.gram", 1));
    assertThat(stream.pending()).isZero();
  }
}
