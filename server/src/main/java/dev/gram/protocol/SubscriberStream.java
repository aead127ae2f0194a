package dev.gram.protocol;

import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ResourceChange;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One subscriber's changes on their way to its client. The commit thread only offers: the change
 * goes into a bounded map keyed by document (a newer revision replaces the one not yet sent, so a
 * slow client gets the latest rev of each document, never a backlog), and a wake-up is emitted on
 * a Mutiny {@link Multi} whose overflow strategy is {@link BackPressureStrategy#LATEST}: while a
 * delivery runs, further wake-ups collapse into one. The subscriber requests the next wake-up
 * only after it has sent what was pending, on the transport's own thread (an HTTP connection's
 * event loop) or a worker, and not while the transport is
 * congested; so a commit never waits for delivery, and a stalled client costs at most {@link
 * #MAX_DOCUMENTS} pending changes.
 *
 * <p>Past {@link #MAX_DOCUMENTS} distinct documents the oldest pending one is dropped: a
 * notification is a hint, and {@code gram_changes} since the last revision seen is the record.
 *
 * <p>Public because the web view's live pages ({@code dev.gram.web}) follow the vault the same
 * way: one stream per open page, so a browser that stops reading never slows a commit either.
 */
public final class SubscriberStream implements Consumer<ResourceChange> {
  static final int MAX_DOCUMENTS = 1024;
  /** How long a congested transport is left alone before the stream looks again. */
  private static final long CONGESTED_RETRY_MS = 20;

  /** What the stream sends: the changes it has, and whether the list changed meanwhile. */
  public interface Delivery {
    void deliver(List<ResourceChange> changes, boolean listChanged);
  }

  private final Predicate<ResourceChange> wanted;
  private final Predicate<ResourceChange> visible;
  private final boolean wantsListChanged;
  private final Outbound outbound;
  private final Delivery delivery;
  // Guarded by this.
  private final LinkedHashMap<String, ResourceChange> pending = new LinkedHashMap<>();
  private boolean listChanged;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile MultiEmitter<? super Boolean> wake;
  private volatile Flow.Subscription upstream;
  private final ChangeFeed.Registration registration;

  /**
   * @param wanted which document changes this subscriber hears
   * @param wantsListChanged whether it hears that documents appeared or vanished
   */
  public SubscriberStream(
      ChangeFeed feed,
      Predicate<ResourceChange> wanted,
      boolean wantsListChanged,
      Outbound outbound,
      Delivery delivery) {
    this(feed, wanted, c -> true, wantsListChanged, outbound, delivery);
  }

  /**
   * @param visible whether the subscriber may hear of the change at all (its caller's approvals):
   *     a change it may not see is neither delivered nor counted as a change of the list
   */
  SubscriberStream(
      ChangeFeed feed,
      Predicate<ResourceChange> wanted,
      Predicate<ResourceChange> visible,
      boolean wantsListChanged,
      Outbound outbound,
      Delivery delivery) {
    this.visible = visible;
    this.wanted = wanted;
    this.wantsListChanged = wantsListChanged;
    this.outbound = outbound;
    this.delivery = delivery;
    Multi.createFrom()
        .<Boolean>emitter(e -> wake = e, BackPressureStrategy.LATEST)
        .subscribe()
        .withSubscriber(new Wakeups());
    this.registration = feed.listen(this);
  }

  /** On the committing thread: constant work, never waits. */
  @Override
  public void accept(ResourceChange change) {
    if (closed.get() || !visible.test(change)) {
      return;
    }
    boolean document = wanted.test(change);
    boolean list = wantsListChanged && change.kind().changesList();
    if (!document && !list) {
      return;
    }
    synchronized (this) {
      if (document) {
        if (pending.size() >= MAX_DOCUMENTS && !pending.containsKey(change.path())) {
          String eldest = pending.keySet().iterator().next();
          pending.remove(eldest);
          dropped.incrementAndGet();
        }
        ResourceChange before = pending.get(change.path());
        if (before != null
            && before.kind() == ResourceChange.Kind.CREATED
            && change.kind() == ResourceChange.Kind.UPDATED) {
          // Still new to this subscriber: it has not been told the document exists.
          change =
              new ResourceChange(
                  change.uri(), change.path(), change.rev(), change.hash(), change.by(),
                  change.summary(), ResourceChange.Kind.CREATED);
        }
        pending.put(change.path(), change);
      }
      listChanged |= list;
    }
    MultiEmitter<? super Boolean> w = wake;
    if (w != null) {
      w.emit(Boolean.TRUE);
    }
  }

  /** Stops hearing changes and drops what was not sent; closing twice is harmless. */
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    registration.close();
    Flow.Subscription s = upstream;
    if (s != null) {
      s.cancel();
    }
    synchronized (this) {
      pending.clear();
    }
  }

  boolean closed() {
    return closed.get();
  }

  /** Changes dropped because more documents were pending than the queue holds. */
  long dropped() {
    return dropped.get();
  }

  synchronized int pending() {
    return pending.size();
  }

  private void deliverPending() {
    if (closed.get()) {
      return;
    }
    if (outbound.congested()) {
      Infrastructure.getDefaultWorkerPool()
          .schedule(this::deliverPending, CONGESTED_RETRY_MS, TimeUnit.MILLISECONDS);
      return;
    }
    List<ResourceChange> changes;
    boolean list;
    synchronized (this) {
      changes = new ArrayList<>(pending.values());
      pending.clear();
      list = listChanged;
      listChanged = false;
    }
    try {
      if (!changes.isEmpty() || list) {
        delivery.deliver(changes, list);
      }
    } finally {
      Flow.Subscription s = upstream;
      if (s != null && !closed.get()) {
        s.request(1);
      }
    }
  }

  /** Takes one wake-up at a time and sends what is pending on a worker thread. */
  private final class Wakeups implements MultiSubscriber<Boolean> {
    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      upstream = subscription;
      subscription.request(1);
    }

    @Override
    public void onItem(Boolean item) {
      java.util.concurrent.Executor where = outbound.executor();
      (where != null ? where : Infrastructure.getDefaultWorkerPool())
          .execute(SubscriberStream.this::deliverPending);
    }

    @Override
    public void onFailure(Throwable failure) {
      close();
    }

    @Override
    public void onCompletion() {
      close();
    }
  }
}
