package dev.gram.store;

import dev.gram.edit.PatchEngine;
import dev.gram.format.Revision;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of one vault that its actors share, and what they see of them ({@link ActorContext}):
 * the documents, the I/O pool, durable files, request ids, commits in flight, what the log held at
 * start, and the committer of the moment (the log's, or a cluster's wrapping it). {@link Vault}
 * builds it, opens the log into it, and answers readers and writers from it.
 */
final class StoreServices implements ActorContext {
  private static final Logger LOG = LoggerFactory.getLogger(StoreServices.class);

  /** The committer of a vault without a log: it never gets a write (the vault refuses them first). */
  private static final Committer NO_LOG = (path, head, rev) -> {
    throw new IOException("this vault is open read-only here");
  };

  final PathResolver paths;
  final PatchEngine patchEngine;
  final Clock clock;
  final Vault.Durability durability;
  final ExecutorService ioPool;
  final DurableFiles files = new DurableFiles();
  final VaultNames names = new VaultNames();
  final DocumentTable table = new DocumentTable(names);
  final PatchEngine.Context patchContext = docId -> table.pathOf(docId) != null;
  final Idempotency requests;
  final CommitsInFlight inFlight;
  final Recovery recovery = new Recovery(names);
  final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
  final LongAdder commitCpuNanos = new LongAdder();
  final LongAdder writesHandled = new LongAdder();
  volatile WriteAheadLog log;
  volatile Committer committer = NO_LOG;

  StoreServices(PathResolver paths, PatchEngine patchEngine, Clock clock, int ioThreads, Vault.Durability durability) {
    this.paths = paths;
    this.patchEngine = patchEngine;
    this.clock = clock;
    this.durability = durability;
    this.ioPool = StoreThreads.io(ioThreads);
    this.requests = new Idempotency(patchEngine, patchContext);
    this.inFlight = new CommitsInFlight(clock);
  }

  DocumentActor actor(VaultPath p) {
    return table.actor(p, vp -> new DocumentActor(this, vp));
  }

  /** The log is open: commits go through it. */
  void logOpened(WriteAheadLog opened) {
    log = opened;
    committer = new LogCommitter(opened);
  }

  @Override
  public Executor io() {
    return ioPool;
  }

  @Override
  public PathResolver paths() {
    return paths;
  }

  @Override
  public Clock clock() {
    return clock;
  }


  @Override
  public DurableFiles files() {
    return files;
  }

  @Override
  public Idempotency requests() {
    return requests;
  }

  @Override
  public PatchEngine patchEngine() {
    return patchEngine;
  }

  @Override
  public PatchEngine.Context patchContext() {
    return patchContext;
  }

  @Override
  public CommitsInFlight inFlight() {
    return inFlight;
  }

  @Override
  public Committer committer() {
    return committer;
  }

  @Override
  public Replay.Outcome replayLog(String path, DocSnapshot disk) {
    return recovery.replay(path, disk, this::setAside);
  }

  @Override
  public boolean documentIdTaken(String documentId, String path) {
    return table.taken(documentId, path);
  }

  @Override
  public void published(String path, DocSnapshot snapshot, Origin origin) {
    table.idAt(path, snapshot == null || snapshot.state() == null ? null : snapshot.state().id());
    if (origin == Origin.READ) {
      requests.indexDocument(path, snapshot == null ? null : snapshot.history());
    }
    for (CommitListener l : listeners) {
      try {
        if (origin == Origin.FOLLOWED) {
          l.onFollowed(path, snapshot);
        } else {
          l.onChange(path, snapshot);
        }
      } catch (RuntimeException e) {
        LOG.error("listener failed for {}", path, e);
      }
    }
  }

  @Override
  public void oweCheckpoint(String path) {
    WriteAheadLog l = log;
    if (l != null) {
      l.markDirty(path);
    }
  }

  @Override
  public void setAside(String path, List<Revision> revisions, String why) {
    if (revisions.isEmpty()) {
      return;
    }
    WriteAheadLog l = log;
    if (durability.mode() != Vault.LogMode.WRITE || l == null) {
      LOG.warn("{}: {} revisions from the log would be set aside: {}", path, revisions.size(), why);
      return;
    }
    try {
      Path file = SetAsideFiles.write(l.dir(), path, revisions, why, clock.instant());
      LOG.warn("{}: revisions {} to {} were set aside in {}: {}", path, revisions.get(0).rev(),
          revisions.get(revisions.size() - 1).rev(), file, why);
    } catch (IOException e) {
      LOG.error("{}: could not set aside revisions {} to {} ({}); they stay in the log: {}", path,
          revisions.get(0).rev(), revisions.get(revisions.size() - 1).rev(), e.toString(), why);
    }
  }

  @Override
  public void commitCpu(long nanos) {
    commitCpuNanos.add(Math.max(0, nanos));
    writesHandled.increment();
  }
}
