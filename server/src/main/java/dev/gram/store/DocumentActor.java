package dev.gram.store;

import dev.gram.async.Async;
import dev.gram.async.SerialExecutor;
import dev.gram.edit.PatchEngine;
import dev.gram.format.CanonicalText;
import dev.gram.format.GramDocument;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Hashes;
import dev.gram.format.History;
import dev.gram.format.HistoryCodec;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import dev.gram.format.StateDiff;
import dev.gram.format.Times;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write actor of one document. Every load, reload and write of the document runs in its
 * mailbox, one at a time, on the vault's I/O pool; readers take {@link #current()} without ever
 * entering the mailbox.
 */
final class DocumentActor {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentActor.class);

  static final String STALE_BASE = "Accepted revision or hash changed";
  static final String STALE_EXTERNAL = "Artifact changed during transaction";
  static final String CREATE_EXISTS = "Create target already exists";
  static final String REUSE = RequestReuseException.MESSAGE;
  static final String UNKNOWN = "Replacement published but durability is uncertain: ";

  private final Vault vault;
  private final VaultPath location;
  private final SerialExecutor mailbox;

  /** The latest snapshot; null while not loaded or when no file exists. */
  private volatile DocSnapshot snapshot;
  /** Whether {@link #snapshot} reflects the file (null then means: no file). */
  private volatile boolean loaded;
  /** Set after a COMMIT_UNKNOWN: the file may differ from what we think; read it again. */
  private boolean suspect;
  /**
   * The snapshot holds revisions that are in the write-ahead log but not yet in the file: a
   * change to the file by another program must then be merged, not simply read.
   */
  private volatile boolean logged;
  /** The log's damage stopped this document: its records stay in the log until a person repairs it. */
  private boolean logDamaged;
  /** The canonical text of the latest state this actor wrote or rendered (mailbox only). */
  private CanonicalText canonical;
  /**
   * The file as last read is known durable: this process wrote it (create, checkpoint) or synced
   * it. A file another program wrote (an edit adopted as a revision, a file found at start) may
   * still be only in the page cache; a revision logged on top of it must not outlive it, so the
   * first commit syncs it (mailbox only).
   */
  private boolean fileDurable;

  DocumentActor(Vault vault, VaultPath location) {
    this.vault = vault;
    this.location = location;
    this.mailbox = new SerialExecutor(vault.ioPool());
  }

  VaultPath location() {
    return location;
  }

  /** The latest snapshot without waiting, or null when not loaded yet or absent. */
  DocSnapshot current() {
    return snapshot;
  }

  boolean loaded() {
    return loaded;
  }

  /** Whether revisions of this document are in the log and not yet in its file. */
  boolean owesCheckpoint() {
    return logged;
  }

  int queueDepth() {
    return mailbox.depth();
  }

  /** The snapshot, loading the file first if this actor has not read it yet. */
  Future<DocSnapshot> snapshot() {
    if (loaded) {
      return Future.succeededFuture(snapshot);
    }
    return Async.run(
        mailbox,
        () -> {
          ensureLoaded();
          return snapshot;
        });
  }

  /** Re-reads the file if another program changed it; used by the file watcher. */
  Future<DocSnapshot> refresh() {
    return Async.run(
        mailbox,
        () -> {
          if (!loaded) {
            ensureLoaded();
          } else {
            reloadIfChanged();
          }
          return snapshot;
        });
  }

  /** Completes once everything queued before it has run: how the vault drains on shutdown. */
  Future<DocSnapshot> refreshNoop() {
    return Async.run(mailbox, () -> snapshot);
  }

  /**
   * Brings this node's copy up to date with revisions committed by another node (a follower's
   * side of replication), or, with {@code adopt}, taken from a dead node's log: then the file is
   * written too, since no live log holds them any more.
   */
  Future<Void> follow(List<Revision> revisions, boolean adopt) {
    return Async.run(
        mailbox,
        () -> {
          ensureLoaded();
          DocSnapshot now = snapshot;
          Vault.Peers peers = vault.peers();
          List<Revision> todo = revisions;
          if (peers != null && now != null && now.history() != null && !revisions.isEmpty()
              && revisions.get(0).rev() > now.rev() + 1) {
            // A gap: revisions this copy never heard of (it was loading, or an answer was lost).
            todo = new ArrayList<>(peers.newerThan(location.path(), now.rev()));
            todo.addAll(revisions);
          }
          extend(todo);
          if (adopt) {
            DocSnapshot s = snapshot;
            if (s != null && s.history() != null && s.history().revisions().size() > s.persistedRevisions()) {
              logged = true;
            }
            if (!checkpointNow()) {
              throw new GramException(ErrorCode.E_STORAGE,
                  "Storage commit failed: could not write " + location.path() + " with the revisions taken over");
            }
          }
          return null;
        });
  }

  Future<CommitReceipt> submit(WriteCommand command) {
    return Async.<Committed>run(
        mailbox,
        () -> {
          // The write's own CPU, on this thread, waits excluded: what /metrics reports per commit.
          long cpu = CPU.getCurrentThreadCpuTime();
          replicated = null;
          try {
            CommitReceipt r = command instanceof WriteCommand.Create c ? create(c) : patch((WriteCommand.Patch) command);
            return new Committed(r, replicated);
          } catch (IOException e) {
            // Reading the file before a write (a reload, a stat) failed: nothing was written.
            throw storageFailure(e);
          } catch (java.io.UncheckedIOException e) {
            throw storageFailure(e.getCause());
          } finally {
            replicated = null;
            vault.commitCpu(CPU.getCurrentThreadCpuTime() - cpu);
          }
        })
        .compose(c -> c.replicated() == null ? Future.succeededFuture(c.receipt()) : c.replicated().map(c.receipt()));
  }

  /** A receipt, and when the other nodes have the revision (null on a single node or a replay). */
  private record Committed(CommitReceipt receipt, Future<Void> replicated) {}

  /** Set by a commit on a cluster node: when the other nodes have its revision (mailbox only). */
  private Future<Void> replicated;

  private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

  // ------------------------------------------------------------------ mailbox-only methods

  /**
   * Writes every revision that is only in the log into the file (one durable replace), unless
   * another program changed the file since: then its edit is merged first (see {@link
   * #reloadIfChanged}). Completes with true once the file holds everything the log holds for
   * this document.
   */
  Future<Boolean> checkpoint() {
    return Async.run(
        mailbox,
        () -> {
          ensureLoaded();
          return checkpointNow();
        });
  }

  private void ensureLoaded() throws IOException {
    if (!loaded) {
      vault.paths().checkLinks(location);
      DocSnapshot s = DocumentLoader.load(location);
      Replay.Outcome replayed = vault.replayLog(location.path(), s);
      if (replayed != null) {
        s = replayed.snapshot();
        // Owed even when the file already held every record: a run that crashed between a
        // checkpoint's rename and its folder fsync left a file that only the page cache holds,
        // and the log's records must stay until a checkpoint has replaced it durably.
        logged = replayed.snapshot() != null;
        logDamaged = replayed.damaged();
      }
      publish(s, true);
      loaded = true;
      Vault.Peers peers = vault.peers();
      if (peers != null && s != null && s.history() != null) {
        // Another node may own it and hold revisions its file does not have yet (its log's).
        List<Revision> newer = peers.newerThan(location.path(), s.rev());
        if (!newer.isEmpty()) {
          extend(newer);
        }
      }
    }
  }

  /**
   * Appends revisions that another node committed (or a dead node's log holds) to this copy:
   * each must be the next revision and chain onto the head; one already held is skipped, one that
   * cannot join is kept aside (never dropped) with a warning. Mailbox only.
   */
  private void extend(List<Revision> revisions) throws IOException {
    DocSnapshot s = snapshot;
    if (s == null && !revisions.isEmpty()) {
      reloadIfChanged(); // created by another node: its file is written before the receipt
      s = snapshot;
    }
    if (s == null || s.history() == null) {
      if (!revisions.isEmpty()) {
        vault.setAside(location.path(), revisions, "revisions from another node for a document this node cannot read");
      }
      return;
    }
    History h = s.requireHistory();
    List<String> lines = null;
    List<Revision> aside = new ArrayList<>();
    for (Revision r : revisions) {
      if (r.rev() <= h.headRev()) {
        if (!h.revision(r.rev()).chain().equals(r.chain())) {
          aside.add(r);
        }
        continue;
      }
      if (r.rev() != h.headRev() + 1 || !HistoryCodec.chain(h.head().chain(), r).equals(r.chain())) {
        aside.add(r);
        continue;
      }
      try {
        lines = LineDiff.apply(lines == null ? h.headLines() : lines, r.delta());
      } catch (IllegalArgumentException e) {
        aside.add(r);
        continue;
      }
      h = h.append(r, lines);
      if (r.requestId() != null) {
        vault.requests().committed(r.requestId(), location.path(), r.rev(), r.digest());
      }
    }
    if (!aside.isEmpty()) {
      vault.setAside(location.path(), aside, "revisions from another node that do not continue this node's history");
    }
    if (lines == null) {
      return;
    }
    String text = LineDiff.join(lines);
    GramParser.Result parsed = GramParser.parse(text);
    if (!(parsed instanceof GramParser.Success ok) || !Hashes.sha256(text).equals(h.head().stateHash())) {
      LOG.error("{}: revisions from another node do not reproduce revision {}; reading the file again",
          location.path(), h.headRev());
      suspect = true;
      reloadIfChanged();
      return;
    }
    logged = true; // held here, not (yet) in the file
    publish(
        new DocSnapshot(location.path(), location, ok.file().state(), h, h.headRev(), h.head().stateHash(),
            s.fingerprint(), s.persistedRevisions(), s.failure()),
        false);
  }

  private boolean checkpointNow() throws IOException {
    // An edit by another program is merged (or wins) before anything is written, even one that
    // kept the file's size and modification time: the bytes are compared before a replace.
    reloadIfChanged(true);
    if (logDamaged) {
      return false; // what the log holds for it is the evidence a repair needs
    }
    DocSnapshot s = snapshot;
    if (s == null || !logged) {
      return true; // nothing of ours is only in the log
    }
    if (!s.writable()) {
      return false; // stopped with E_INTEGRITY: its log records stay until someone repairs it
    }
    byte[] bytes = s.requireHistory().fileBytes(GramWriter.write(s.requireState()));
    try {
      vault.durable().replace(root(), location.file(), bytes);
    } catch (DurableFiles.PublishedNotDurable e) {
      // Ours, but not known durable: keep owing it; the next round writes it again.
      fileDurable = false;
      snapshot = s.withFile(FileFingerprint.of(location.file(), bytes), s.persistedRevisions());
      LOG.warn("checkpoint of {} is not known durable: {}", location.path(), e.getMessage());
      return false;
    } catch (IOException e) {
      LOG.warn("checkpoint of {} failed; its revisions stay in the log: {}", location.path(), cause(e));
      return false;
    }
    snapshot = s.withFile(FileFingerprint.of(location.file(), bytes), s.requireHistory().revisions().size());
    logged = false;
    fileDurable = true;
    return true;
  }

  /** Reloads when the file differs from the snapshot; returns true if it did. */
  private boolean reloadIfChanged() throws IOException {
    return reloadIfChanged(false);
  }

  /**
   * As {@link #reloadIfChanged()}; with {@code verifyContent}, which a caller about to replace the
   * file passes, a file whose stat still matches is also read and its bytes compared.
   */
  private boolean reloadIfChanged(boolean verifyContent) throws IOException {
    FileFingerprint now = FileFingerprint.of(location.file());
    DocSnapshot s = snapshot;
    FileFingerprint known = s == null ? FileFingerprint.ABSENT : s.fingerprint();
    if (!suspect && now.equals(known) && !(verifyContent && known.contentChanged(location.file()))) {
      return false;
    }
    boolean ours = suspect;
    suspect = false;
    DocSnapshot disk = now.exists() ? DocumentLoader.load(location) : null;
    if (logged && s != null && s.history() != null) {
      return mergeOutsideEdit(s, disk);
    }
    publish(disk, true);
    if (disk != null && !ours) {
      // An edit by another program becomes a revision readers see: make it as durable as ours
      // (the editor may never sync it), so that no revision anyone has read can vanish.
      try {
        vault.durable().syncExisting(root(), location.file());
        fileDurable = true;
      } catch (IOException e) {
        LOG.warn("{}: could not sync the edited file yet ({}); the next write does", location.path(), cause(e));
      }
    }
    return !ours;
  }

  /**
   * Another program changed the file while revisions were only in the log. When the file still
   * continues our history (its revisions are a prefix of ours), nothing acknowledged is lost: an
   * edit of its state becomes the next revision after ours, as if it had come after them, and
   * the next checkpoint writes all of it. When it does not (the file was replaced, deleted, or
   * its history rewritten), the file wins, as it always has for edits by other programs, and our
   * revisions that it lacks are set aside in the log folder with a warning, never dropped.
   * Returns true when the state changed.
   */
  private boolean mergeOutsideEdit(DocSnapshot mine, DocSnapshot disk) throws IOException {
    History ours = mine.requireHistory();
    if (disk != null && disk.history() != null) {
      int persisted = disk.persistedRevisions();
      int size = ours.revisions().size();
      if (persisted > size && disk.history().revision(size - 1).chain().equals(ours.head().chain())) {
        // The file holds all of ours and more (another cluster node wrote revisions this copy had
        // not heard of yet): nothing of ours is only in memory any more.
        logged = false;
        publish(disk, true);
        return true;
      }
      if (persisted >= 1
          && persisted <= ours.revisions().size()
          && ours.revision(persisted - 1).chain().equals(disk.history().revision(persisted - 1).chain())) {
        if (disk.history().revisions().size() == persisted) {
          // Same history, same state as a revision of ours: touched or copied back, not edited.
          snapshot = mine.withFile(disk.fingerprint(), persisted);
          return false;
        }
        String topText = GramWriter.write(disk.requireState());
        List<String> topLines = LineDiff.lines(topText);
        Revision ext =
            DocumentLoader.externalRevision(
                ours, mine.requireState(), disk.state(), topLines, disk.hash(), disk.head().recordedAt());
        History merged = ours.append(ext, topLines);
        LOG.warn(
            "{} was edited by another program while revisions {} to {} were not yet in the file; the edit"
                + " becomes revision {}, after them",
            location.path(), persisted, ours.headRev(), ext.rev());
        publish(
            new DocSnapshot(
                location.path(), location, disk.state(), merged, ext.rev(), disk.hash(), disk.fingerprint(),
                persisted, null),
            true);
        return true;
      }
    }
    int from = Math.max(0, mine.persistedRevisions());
    List<Revision> lost = ours.revisions().subList(from, ours.revisions().size());
    String why = disk == null
        ? "the file was deleted by another program before these revisions were written into it"
        : "the file was replaced by one that does not continue this history before these revisions were"
            + " written into it";
    vault.setAside(location.path(), lost, why);
    logged = false;
    publish(disk, true);
    return true;
  }

  /**
   * Makes a new snapshot visible to readers and tells the vault; {@code fromDisk} when it was
   * read from the file (so its request ids must be indexed again) rather than written by us.
   */
  private void publish(DocSnapshot next, boolean fromDisk) {
    if (fromDisk) {
      fileDurable = false;
    }
    snapshot = next;
    if (holdsUnwrittenOutsideEdit(next) && !logDamaged) {
      // The revision made of an outside edit exists only here: the file must take it into its
      // history soon, or a second edit would be read as another revision with the same number.
      logged = true;
      vault.oweCheckpoint(location.path());
    }
    vault.published(location.path(), next, fromDisk);
  }

  private CommitReceipt create(WriteCommand.Create c) throws IOException {
    ensureLoaded();
    reloadIfChanged();
    if (snapshot != null) {
      throw new StaleRevisionException(CREATE_EXISTS, snapshot, null);
    }
    vault.paths().checkLinks(location);
    GramDocument initial = c.initial();
    if (vault.documentIdTaken(initial.id(), location.path())) {
      throw new GramException(
          ErrorCode.E_ARGUMENT, "document id " + initial.id() + " is already used by another document");
    }
    CanonicalText canonicalText = render(() -> CanonicalText.of(initial));
    String text = new String(canonicalText.utf8(), java.nio.charset.StandardCharsets.UTF_8);
    List<String> lines = canonicalText.lines();
    String hash = canonicalText.sha256();
    Instant now = Times.truncate(vault.clock().instant());
    long inFlight = vault.commitStarted(now);
    try {
      return createAt(c, initial, text, lines, hash, now);
    } finally {
      vault.commitEnded(inFlight);
    }
  }

  private CommitReceipt createAt(
      WriteCommand.Create c, GramDocument initial, String text, List<String> lines, String hash, Instant now)
      throws IOException {
    Revision rev0 =
        HistoryCodec.sealed(
            null,
            new Revision(
                0,
                now,
                c.effectiveAt(),
                Revision.AGENT,
                c.by(),
                null,
                null,
                StateDiff.changes(null, initial),
                LineDiff.diff(List.of(), lines),
                hash,
                ""));
    History history = History.first(rev0, lines);
    byte[] bytes = history.fileBytes(text);
    try {
      vault.durable().create(root(), location.file(), bytes);
    } catch (FileAlreadyExistsException e) {
      reloadIfChanged();
      throw new StaleRevisionException(CREATE_EXISTS, snapshot, null);
    } catch (DurableFiles.PublishedNotDurable e) {
      suspect = true;
      throw new GramException(ErrorCode.COMMIT_UNKNOWN, UNKNOWN + e.getMessage());
    } catch (SafeFolder.LinkedFolderException e) {
      // A folder of the path became a link between the check and the write: nothing was written.
      LOG.warn("create refused: {}", e.getMessage());
      throw new GramException(ErrorCode.E_PATH, PathResolver.OUTSIDE);
    } catch (IOException e) {
      throw storageFailure(e);
    }
    DocSnapshot next =
        new DocSnapshot(
            location.path(), location, initial, history, 0, hash, FileFingerprint.of(location.file(), bytes), 1, null);
    publish(next, false);
    fileDurable = true;
    replicate(rev0);
    return new CommitReceipt(location.path(), 0, next.shortHash(), c.created(), null, c.diagnostics(), false);
  }

  private CommitReceipt patch(WriteCommand.Patch p) throws IOException {
    ensureLoaded();
    boolean changedOutside = reloadIfChanged();
    DocSnapshot s = snapshot;
    if (s == null) {
      throw new GramException(ErrorCode.E_ARGUMENT, "Document not found: " + location.path());
    }
    RequestIndex.Entry used = vault.requests().lookup(p.requestId());
    if (used != null) {
      if (!used.inFlight() && used.path().equals(location.path()) && used.digest().equals(p.digest())
          && s.history() != null && used.rev() <= s.rev()) {
        return replay(s, used.rev(), p.requestId());
      }
      throw reuse(used);
    }
    if (changedOutside) {
      throw new StaleRevisionException(STALE_EXTERNAL, s, null);
    }
    if (!s.writable()) {
      throw new GramException(
          ErrorCode.E_INTEGRITY,
          s.failure() == null ? "Document cannot be written" : s.failure());
    }
    if (!vault.requests().reserve(p.requestId(), location.path(), p.digest())) {
      throw reuse(vault.requests().lookup(p.requestId()));
    }
    boolean committed = false;
    try {
      if (p.baseRevision() != s.rev() || !hashMatches(p.expectedHash(), s.hash())) {
        // Whether the file watcher or this write noticed first, an edit by another program since
        // the caller's base is reported as such.
        String message = editedOutsideSince(s, p.baseRevision()) ? STALE_EXTERNAL : STALE_BASE;
        throw new StaleRevisionException(message, s, p.baseRevision());
      }
      PatchEngine.Outcome outcome =
          vault.patchEngine().apply(s.requireState(), p.operations(), vault.patchContext());
      if (!fileDurable || holdsUnwrittenOutsideEdit(s)) {
        makeFileDurable();
        DocSnapshot now = snapshot;
        if (now == null || now.rev() != s.rev() || !now.hash().equals(s.hash())) {
          throw new StaleRevisionException(STALE_EXTERNAL, now, null); // another program wrote meanwhile
        }
        s = now;
      }
      CommitReceipt receipt = commit(s, outcome, p);
      committed = true;
      return receipt;
    } finally {
      if (!committed) {
        vault.requests().release(p.requestId(), location.path());
      }
    }
  }

  /**
   * Before the first revision this process logs on top of a file it did not write: the log's
   * record chains onto the file's history, so that history must survive a power cut too. A file
   * another program wrote may never have been synced; and when revisions are also waiting in the
   * log (an outside edit merged after them, or records replayed at start), the file lacks them:
   * it is rewritten with all of them first.
   */
  private void makeFileDurable() throws IOException {
    DocSnapshot s = snapshot;
    if (logged || holdsUnwrittenOutsideEdit(s)) {
      logged = true; // an outside edit made into a revision lives only here until the file holds it
      if (!checkpointNow()) {
        throw new IOException("could not write " + location.path() + " before logging a revision on top of it");
      }
    } else if (s != null && s.fingerprint().exists()) {
      vault.durable().syncExisting(root(), location.file());
    }
    fileDurable = true;
  }

  /**
   * Whether the history holds a revision that neither the file nor the log holds: an edit by
   * another program, turned into a revision when it was read. A revision logged on top of it
   * would not chain onto what a restart reads, so the file is rewritten first.
   */
  private static boolean holdsUnwrittenOutsideEdit(DocSnapshot s) {
    if (s == null || s.history() == null) {
      return false;
    }
    List<Revision> revs = s.history().revisions();
    for (int i = Math.max(0, s.persistedRevisions()); i < revs.size(); i++) {
      if (Revision.EXTERNAL.equals(revs.get(i).actor())) {
        return true;
      }
    }
    return false;
  }

  private static boolean editedOutsideSince(DocSnapshot s, int base) {
    List<Revision> revs = s.requireHistory().revisions();
    for (int i = Math.max(0, base + 1); i < revs.size(); i++) {
      if (Revision.EXTERNAL.equals(revs.get(i).actor())) {
        return true;
      }
    }
    return false;
  }

  private CommitReceipt commit(DocSnapshot s, PatchEngine.Outcome outcome, WriteCommand.Patch p)
      throws IOException {
    GramDocument next = outcome.state();
    CanonicalText before = canonical(s);
    CanonicalText after = render(() -> before.next(next));
    History history = s.requireHistory();
    Revision head = history.head();
    Instant now = Times.truncate(vault.clock().instant());
    long inFlight = vault.commitStarted(now);
    try {
      return commitAt(s, outcome, p, next, before, after, history, head, now);
    } finally {
      vault.commitEnded(inFlight);
    }
  }

  private CommitReceipt commitAt(
      DocSnapshot s,
      PatchEngine.Outcome outcome,
      WriteCommand.Patch p,
      GramDocument next,
      CanonicalText before,
      CanonicalText after,
      History history,
      Revision head,
      Instant now)
      throws IOException {
    // Strictly after the revision before: commits through the log take less than a millisecond,
    // and a read by recorded time must still be able to name every revision.
    Instant floor = head.recordedAt().plusMillis(1);
    Instant at = now.isBefore(floor) ? floor : now;
    String hash = after.sha256();
    Revision rev =
        HistoryCodec.sealed(
            head.chain(),
            new Revision(
                head.rev() + 1,
                at,
                p.effectiveAt(),
                Revision.AGENT,
                p.by(),
                p.requestId(),
                p.digest(),
                StateDiff.changes(s.requireState(), next),
                before.deltaTo(after),
                hash,
                ""));
    History appended = history.append(rev, after.lines());
    WriteAheadLog log = vault.log(); // never null here: Vault.submit refuses writes without a log
    long seq;
    try {
      seq = log.append(location.path(), LogRecord.revisionPayload(location.path(), rev));
    } catch (IOException e) {
      throw storageFailure(e);
    }
    try {
      log.awaitDurable(seq);
    } catch (IOException e) {
      // The record may be on disk until the void record that cancels it is: a retry with the
      // same request_id writes it again, and a replay after a crash keeps at most one of them.
      vault.requests().release(p.requestId(), location.path());
      throw new GramException(
          ErrorCode.COMMIT_UNKNOWN, UNKNOWN + "the write-ahead log's fsync failed: " + cause(e));
    }
    Vault.Peers peers = vault.peers();
    boolean advanced;
    try {
      advanced = peers == null || peers.advance(location.path(), head, rev);
    } catch (RuntimeException e) {
      voidQuietly(log, seq); // refused to the caller, so it must never replay
      throw e;
    }
    if (!advanced) {
      // Another node committed after our head (ownership moved while we wrote): ours must never
      // replay, and the caller's base is not current.
      voidQuietly(log, seq);
      extend(peers.newerThan(location.path(), s.rev()));
      throw new StaleRevisionException(STALE_BASE, snapshot, p.baseRevision());
    }
    logged = true;
    DocSnapshot published =
        new DocSnapshot(
            location.path(), location, next, appended, rev.rev(), hash, s.fingerprint(), s.persistedRevisions(), null);
    canonical = after;
    vault.requests().committed(p.requestId(), location.path(), rev.rev(), p.digest());
    publish(published, false);
    replicate(rev);
    return new CommitReceipt(
        location.path(), rev.rev(), published.shortHash(), outcome.created(), p.requestId(), outcome.diagnostics(), false);
  }

  private void voidQuietly(WriteAheadLog log, long seq) {
    try {
      log.voidRecord(seq);
    } catch (IOException e) {
      LOG.warn("{}: cancelling log record {} failed: {}", location.path(), seq, e.toString());
    }
  }

  /**
   * Hands a durable, published revision to the other nodes; its receipt waits for them, and so
   * does this mailbox (without a thread), so that the next write, and a checkpoint, come after.
   */
  private void replicate(Revision rev) {
    Vault.Peers peers = vault.peers();
    if (peers != null) {
      Runnable release = mailbox.hold();
      Future<Void> f;
      try {
        f = peers.replicate(location.path(), rev);
      } catch (RuntimeException e) {
        release.run();
        throw e;
      }
      replicated = f.onComplete(ar -> release.run());
    }
  }

  private CommitReceipt replay(DocSnapshot s, int revNumber, String requestId) {
    Revision r = s.requireHistory().revision(revNumber);
    List<String> created = new ArrayList<>();
    for (Revision.Change c : r.changes()) {
      if (c.kind() == Revision.Kind.ADD && !c.type().equals("document")) {
        created.add(c.id());
      }
    }
    return new CommitReceipt(location.path(), revNumber, r.shortHash(), created, requestId, new JsonArray(), true);
  }

  private static GramException reuse(RequestIndex.Entry used) {
    return new RequestReuseException(
        REUSE,
        used == null ? null : used.path(),
        used == null || used.inFlight() ? null : used.rev());
  }

  private static GramException storageFailure(IOException e) {
    LOG.warn("commit failed: {}", e.toString());
    return new GramException(ErrorCode.E_STORAGE, "Storage commit failed: " + cause(e));
  }

  /**
   * What went wrong, in words an agent can pass on: an AccessDeniedException's message is only
   * the file's name, which said nothing about the missing permission.
   */
  static String cause(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException a) {
      return "permission denied writing " + a.getFile() + " (the server's user cannot write to the vault)";
    }
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      return f.getReason() + ": " + f.getFile();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** The trusted folder this document lives under: the vault's or its mount's. */
  private java.nio.file.Path root() {
    return location.mount() == null ? vault.paths().vaultRoot() : location.mount().root();
  }

  /** Renders canonical text, refusing what is not Unicode text as the caller's mistake. */
  private static CanonicalText render(java.util.function.Supplier<CanonicalText> r) {
    try {
      return r.get();
    } catch (CanonicalText.NotUnicodeException e) {
      throw new GramException(ErrorCode.E_ARGUMENT, e.getMessage());
    }
  }

  /** The canonical text of the snapshot's state, kept from the last commit when it still is. */
  private CanonicalText canonical(DocSnapshot s) {
    CanonicalText t = canonical;
    if (t == null || t.document() != s.requireState()) {
      t = CanonicalText.of(s.requireState());
      canonical = t;
    }
    return t;
  }

  static boolean hashMatches(String expected, String fullHash) {
    if (expected == null || fullHash == null) {
      return false;
    }
    String e = expected.trim().toLowerCase(java.util.Locale.ROOT);
    return e.length() >= 16 && fullHash.startsWith(e);
  }
}
