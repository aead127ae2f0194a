package dev.gram.store;

import static dev.gram.store.StoreErrors.CREATE_EXISTS;
import static dev.gram.store.StoreErrors.STALE_BASE;
import static dev.gram.store.StoreErrors.STALE_EXTERNAL;

import dev.gram.async.Async;
import dev.gram.async.SerialExecutor;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import io.vertx.core.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write actor of one document: its mailbox, in which every load, write and checkpoint of the
 * document runs one at a time on the vault's I/O threads, and the stages a write goes through
 * there: the document as its file has it ({@link DocumentFile}, which follows edits by other
 * programs), the request_id rules ({@link Idempotency}), the patch engine, the pure revision
 * builder ({@link CommitBuilder}), then the committer (this node's log, and on a cluster the other
 * nodes). Readers take {@link #current()} without ever entering the mailbox.
 */
final class DocumentActor {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentActor.class);
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  /** A write's receipt, and when everyone who must hold its revision does. */
  private record Answer(CommitReceipt receipt, Future<Void> heard) {}

  private final ActorContext ctx;
  private final VaultPath location;
  private final SerialExecutor mailbox;
  private final DocumentFile doc;

  DocumentActor(ActorContext ctx, VaultPath location) {
    this.ctx = ctx;
    this.location = location;
    this.mailbox = new SerialExecutor(ctx.io());
    this.doc = new DocumentFile(ctx, location);
  }

  VaultPath location() {
    return location;
  }

  /** The latest snapshot without waiting, or null when not loaded yet or absent. */
  DocSnapshot current() {
    return doc.current();
  }

  boolean loaded() {
    return doc.loaded();
  }

  /** Whether revisions of this document are held here and not yet in its file. */
  boolean owesCheckpoint() {
    DocumentFile.FileState s = doc.state();
    return s == DocumentFile.FileState.LOGGED || s == DocumentFile.FileState.REWRITE;
  }

  int queueDepth() {
    return mailbox.depth();
  }

  /** The snapshot, loading the file first if this actor has not read it yet. */
  Future<DocSnapshot> snapshot() {
    if (doc.loaded()) {
      return Future.succeededFuture(doc.current());
    }
    return Async.run(mailbox, () -> {
      doc.ensureLoaded();
      return doc.current();
    });
  }

  /** Re-reads the file if another program changed it; used by the file watcher. */
  Future<DocSnapshot> refresh() {
    return Async.run(mailbox, () -> {
      if (!doc.loaded()) {
        doc.ensureLoaded();
      } else {
        doc.reloadIfChanged(false);
      }
      return doc.current();
    });
  }

  /** Completes once everything queued before it has run: how the vault drains on shutdown. */
  Future<DocSnapshot> drained() {
    return Async.run(mailbox, doc::current);
  }

  /**
   * Writes every revision held here and not yet in the file into it (one durable replace).
   * Completes with the file's size once it holds everything this copy holds, else with -1.
   */
  Future<Long> checkpoint() {
    return Async.run(mailbox, () -> {
      doc.ensureLoaded();
      return doc.checkpointNow() ? doc.fileSize() : -1L;
    });
  }

  /**
   * Brings this node's copy up to date with revisions committed by another node (a follower's
   * side of replication), or, with {@code adopt}, taken from a dead node's log: then the file is
   * written too, since no live log holds them any more.
   */
  Future<Void> follow(List<Revision> revisions, boolean adopt) {
    return Async.run(mailbox, () -> {
      doc.ensureLoaded();
      DocSnapshot now = doc.current();
      List<Revision> todo = revisions;
      if (now != null && now.history() != null && !revisions.isEmpty() && revisions.get(0).rev() > now.rev() + 1) {
        // A gap: revisions this copy never heard of (it was loading, or an answer was lost).
        todo = new ArrayList<>(ctx.committer().newerThan(location.path(), now.rev()));
        todo.addAll(revisions);
      }
      doc.extend(todo);
      if (adopt) {
        doc.oweFile();
        if (!doc.checkpointNow()) {
          throw new GramException(ErrorCode.E_STORAGE,
              "Storage commit failed: could not write " + location.path() + " with the revisions taken over");
        }
      }
      return null;
    });
  }

  Future<CommitReceipt> submit(WriteCommand command) {
    return Async.run(mailbox, () -> {
          // The write's own CPU, on this thread, waits excluded: what /metrics reports per commit.
          long cpu = CPU.getCurrentThreadCpuTime();
          try {
            return command instanceof WriteCommand.Create c ? create(c) : patch((WriteCommand.Patch) command);
          } catch (IOException e) {
            throw StoreErrors.storageFailure(e); // reading the file before a write failed: nothing was written
          } catch (UncheckedIOException e) {
            throw StoreErrors.storageFailure(e.getCause());
          } finally {
            ctx.commitCpu(CPU.getCurrentThreadCpuTime() - cpu);
          }
        })
        .compose(a -> a.heard().map(a.receipt()));
  }

  // ------------------------------------------------------------------ the stages (mailbox only)

  private Answer create(WriteCommand.Create c) throws IOException {
    doc.ensureLoaded();
    doc.reloadIfChanged(false);
    if (doc.current() != null) {
      throw new StaleRevisionException(CREATE_EXISTS, doc.current(), null);
    }
    ctx.paths().checkLinks(location);
    if (ctx.documentIdTaken(c.initial().id(), location.path())) {
      throw new GramException(
          ErrorCode.E_ARGUMENT, "document id " + c.initial().id() + " is already used by another document");
    }
    Instant now = Times.truncate(ctx.clock().instant());
    long inFlight = ctx.inFlight().started(now);
    try {
      CommitBuilder.Built built = CommitBuilder.create(c, now);
      byte[] bytes = CommitBuilder.fileBytes(built);
      try {
        ctx.files().create(doc.root(), location.file(), bytes);
      } catch (FileAlreadyExistsException e) {
        doc.reloadIfChanged(false);
        throw new StaleRevisionException(CREATE_EXISTS, doc.current(), null);
      } catch (DurableFiles.PublishedNotDurable e) {
        doc.createUnsure();
        throw StoreErrors.commitUnknown(e.getMessage());
      } catch (SafeFolder.LinkedFolderException e) {
        // A folder of the path became a link between the check and the write: nothing was written.
        LOG.warn("create refused: {}", e.getMessage());
        throw new GramException(ErrorCode.E_PATH, PathResolver.OUTSIDE);
      }
      DocSnapshot next = new DocSnapshot(location.path(), location, built.state(), built.history(), 0, built.hash(),
          FileFingerprint.of(location.file(), bytes), 1, null);
      doc.created(next, built.text());
      CommitReceipt r = new CommitReceipt(location.path(), 0, next.shortHash(), c.created(), null, c.diagnostics(), false);
      return new Answer(r, heard(built.revision(), null));
    } finally {
      ctx.inFlight().ended(inFlight);
    }
  }

  private Answer patch(WriteCommand.Patch p) throws IOException {
    doc.ensureLoaded();
    boolean changedOutside = doc.reloadIfChanged(false);
    DocSnapshot s = doc.current();
    if (s == null) {
      throw new GramException(ErrorCode.E_ARGUMENT, "Document not found: " + location.path());
    }
    CommitReceipt original = ctx.requests().begin(s, p);
    if (original != null) {
      return new Answer(original, Future.succeededFuture());
    }
    boolean committed = false;
    try {
      if (changedOutside) {
        throw new StaleRevisionException(STALE_EXTERNAL, s, null);
      }
      if (!s.writable()) {
        throw new GramException(ErrorCode.E_INTEGRITY, s.failure() == null ? "Document cannot be written" : s.failure());
      }
      if (p.baseRevision() != s.rev() || !StoreErrors.hashMatches(p.expectedHash(), s.hash())) {
        // Whether the file watcher or this write noticed first, an edit by another program since
        // the caller's base is reported as such.
        throw new StaleRevisionException(OutsideEdits.since(s, p.baseRevision()) ? STALE_EXTERNAL : STALE_BASE, s,
            p.baseRevision());
      }
      PatchEngine.Outcome outcome = ctx.patchEngine().apply(s.requireState(), p.operations(), ctx.patchContext());
      if (doc.state() == DocumentFile.FileState.UNSYNCED || doc.state() == DocumentFile.FileState.REWRITE) {
        doc.secureFile();
        DocSnapshot now = doc.current();
        if (now == null || now.rev() != s.rev() || !now.hash().equals(s.hash())) {
          throw new StaleRevisionException(STALE_EXTERNAL, now, null); // another program wrote meanwhile
        }
        s = now;
      }
      Answer a = commit(s, outcome, p);
      committed = true;
      return a;
    } finally {
      if (!committed) {
        ctx.requests().notCommitted(p.requestId(), location.path());
      }
    }
  }

  private Answer commit(DocSnapshot s, PatchEngine.Outcome outcome, WriteCommand.Patch p) throws IOException {
    Instant now = Times.truncate(ctx.clock().instant());
    long inFlight = ctx.inFlight().started(now);
    try {
      CommitBuilder.Built built = CommitBuilder.patch(s, doc.canonical(s), outcome, p, now);
      Revision rev = built.revision();
      boolean won;
      try {
        won = ctx.committer().commit(location.path(), s.head(), rev);
      } catch (Committer.NotDurable e) {
        // The record may be on disk until the void record that cancels it is: a retry with the
        // same request_id writes it again, and a replay after a crash keeps at most one of them.
        throw StoreErrors.commitUnknown("the write-ahead log's fsync failed: " + StoreErrors.cause(e));
      } catch (IOException e) {
        throw StoreErrors.storageFailure(e);
      }
      if (!won) {
        // Another node committed after our head (ownership moved while we wrote): the caller's
        // base is not current.
        doc.extend(ctx.committer().newerThan(location.path(), s.rev()));
        throw new StaleRevisionException(STALE_BASE, doc.current(), p.baseRevision());
      }
      DocSnapshot published = new DocSnapshot(location.path(), location, built.state(), built.history(), rev.rev(),
          built.hash(), s.fingerprint(), s.persistedRevisions(), null);
      ctx.requests().committed(p.requestId(), location.path(), rev.rev());
      doc.committed(published, built.text());
      CommitReceipt r = new CommitReceipt(location.path(), rev.rev(), published.shortHash(), outcome.created(),
          p.requestId(), outcome.diagnostics(), false);
      return new Answer(r, heard(rev, p.requestId()));
    } finally {
      ctx.inFlight().ended(inFlight);
    }
  }

  /**
   * Hands a durable, published revision to whoever must hold it; its receipt waits for them, and
   * so does this mailbox (without a thread), so that the next write, and a checkpoint, come after.
   */
  private Future<Void> heard(Revision rev, String requestId) {
    Future<Boolean> f = ctx.committer().heard(location.path(), rev);
    if (!f.isComplete()) {
      Runnable release = mailbox.hold();
      f.onComplete(ar -> release.run());
    }
    if (requestId != null) {
      f.onSuccess(everyone -> {
        if (everyone) {
          ctx.requests().heldEverywhere(requestId);
        }
      });
    }
    return f.mapEmpty();
  }
}
