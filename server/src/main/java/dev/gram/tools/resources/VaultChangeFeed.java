package dev.gram.tools.resources;

import dev.gram.async.Foreground;
import dev.gram.format.Revision;
import dev.gram.store.CommitListener;
import dev.gram.store.DocSnapshot;
import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ResourceChange;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's commit listener turned into {@link ResourceChange}s for subscribers. The store calls
 * it on the document's mailbox before the receipt goes back, so it only works out the change and
 * hands it to one fan-out thread: a commit costs the same with a thousand subscribers as with
 * none, and the writer's receipt is on its way before the notifications are. The fan-out thread
 * tells the listeners in commit order; each hands the change to its own bounded queue and returns.
 * Before it does, it lets the tool calls in flight be answered (a moment at most), so that a
 * writer's receipt is not queued behind its listeners' notifications.
 *
 * <p>The store also tells of states that are not news to a client: the start-up scan loading each
 * document, and a reload that found the file as it was. The last (rev, hash) told per document
 * filters those out, so a subscriber hears each revision once.
 */
public final class VaultChangeFeed implements ChangeFeed, CommitListener {
  private static final Logger LOG = LoggerFactory.getLogger(VaultChangeFeed.class);

  /**
   * The longest the fan-out waits for the tool calls in flight to be answered. A write's change is
   * heard before its receipt goes back; telling a thousand listeners at once put a thousand
   * deliveries on the event loop ahead of the receipt.
   */
  static final long RECEIPTS_FIRST_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(2);

  private final Foreground agents;
  private final Set<Registered> listeners = ConcurrentHashMap.newKeySet();
  /** Per document, the revision and hash last seen: "rev:hash". */
  private final Map<String, String> lastSeen = new ConcurrentHashMap<>();
  private final java.util.concurrent.ThreadPoolExecutor fanOut =
      new java.util.concurrent.ThreadPoolExecutor(1, 1, 0, java.util.concurrent.TimeUnit.MILLISECONDS,
          new java.util.concurrent.LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "gram-push");
            t.setDaemon(true);
            return t;
          });

  /** A feed whose fan-out never waits for anyone. */
  public VaultChangeFeed() {
    this(Foreground.none());
  }

  /**
   * @param agents the tool calls whose answers go out before a change is fanned out (at most
   *     {@link #RECEIPTS_FIRST_NANOS}): the writer hears its receipt first, then the listeners
   */
  public VaultChangeFeed(Foreground agents) {
    this.agents = agents;
  }

  @Override
  public void onChange(String path, DocSnapshot snapshot) {
    ResourceChange change = change(path, snapshot);
    if (change == null || listeners.isEmpty()) {
      return;
    }
    fanOut.execute(() -> tell(change));
  }

  private void tell(ResourceChange change) {
    if (fanOut.getQueue().isEmpty()) {
      // Once per burst: with changes queued behind this one, the fan-out is late already.
      try {
        agents.awaitNoneInFlight(RECEIPTS_FIRST_NANOS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    for (Registered r : listeners) {
      try {
        r.listener.accept(change);
      } catch (RuntimeException e) {
        LOG.error("change listener failed for {}", change.path(), e);
      }
    }
  }

  private ResourceChange change(String path, DocSnapshot snapshot) {
    String uri = ResourceUris.of(path);
    if (snapshot == null) {
      return lastSeen.remove(path) == null
          ? null
          : new ResourceChange(uri, path, -1, null, null, null, ResourceChange.Kind.REMOVED);
    }
    String seen = snapshot.rev() + ":" + snapshot.hash();
    String before = lastSeen.put(path, seen);
    if (seen.equals(before)) {
      return null;
    }
    Revision head = snapshot.history() == null || snapshot.history().revisions().isEmpty()
        ? null
        : snapshot.head();
    ResourceChange.Kind kind = before == null ? ResourceChange.Kind.CREATED : ResourceChange.Kind.UPDATED;
    return new ResourceChange(
        uri,
        path,
        snapshot.rev(),
        snapshot.shortHash(),
        head == null ? null : head.by(),
        head == null ? null : head.countSummary(),
        kind);
  }

  @Override
  public Registration listen(Consumer<ResourceChange> listener) {
    Registered r = new Registered(listener);
    listeners.add(r);
    return r;
  }

  @Override
  public int listeners() {
    return listeners.size();
  }

  /** Identity matters: the same consumer may be registered twice and closed once. */
  private final class Registered implements Registration {
    final Consumer<ResourceChange> listener;

    Registered(Consumer<ResourceChange> listener) {
      this.listener = listener;
    }

    @Override
    public void close() {
      listeners.remove(this);
    }
  }
}
