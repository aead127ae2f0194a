package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.CanonicalText;
import dev.gram.format.GramWriter;
import dev.gram.format.Revision;
import dev.gram.store.ActorContext.Origin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One document as its actor holds it: the snapshot readers see, and where its latest revisions
 * are ({@link FileState}): in its file, durable or not, or only here and in the log. It loads the
 * file, replays the log into it, follows edits by other programs ({@link OutsideEdits} decides,
 * this carries out), writes checkpoints, and makes the file safe to log on top of. Everything but
 * {@link #current()} and {@link #state()} runs in the actor's mailbox.
 */
final class DocumentFile {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentFile.class);

  /** Where the document's latest revisions are, and what a write must do about it first. */
  enum FileState {
    /** Not read yet. */
    UNLOADED,
    /** The file holds every revision, and this process wrote or synced it. */
    DURABLE,
    /** The file holds every revision, but another program (or an earlier run) wrote it: maybe only in the page cache. */
    UNSYNCED,
    /** Revisions this node holds (in its log, or from another node) are not in the file yet; the file is durable. */
    LOGGED,
    /**
     * As {@link #LOGGED}, but the file must be rewritten before a revision is logged on top: after
     * recovery (it may be a rename a killed process never synced), or when an edit by another
     * program became a revision only this copy holds.
     */
    REWRITE,
    /** A commit answered COMMIT_UNKNOWN: what the file holds is not known; read it again. */
    SUSPECT,
    /** The log's damage stopped the document: its records stay in the log for a person to repair. */
    DAMAGED;

    /** Revisions are held here that the file lacks. */
    boolean owesFile() {
      return this == LOGGED || this == REWRITE || this == DAMAGED;
    }
  }

  private final ActorContext ctx;
  private final VaultPath location;
  /** The latest snapshot; null while not loaded or when no file exists. */
  private volatile DocSnapshot snapshot;
  private volatile FileState state = FileState.UNLOADED;
  /** The canonical text of the latest state, kept so the next commit reuses its unchanged entities. */
  private CanonicalText canonical;

  DocumentFile(ActorContext ctx, VaultPath location) {
    this.ctx = ctx;
    this.location = location;
  }

  /** The latest snapshot without waiting, or null when not loaded yet or absent. */
  DocSnapshot current() {
    return snapshot;
  }

  FileState state() {
    return state;
  }

  boolean loaded() {
    return state != FileState.UNLOADED;
  }

  // ------------------------------------------------------------------ loading

  void ensureLoaded() throws IOException {
    if (loaded()) {
      return;
    }
    ctx.paths().checkLinks(location);
    DocSnapshot s = DocumentLoader.load(location);
    Replay.Outcome replayed = ctx.replayLog(location.path(), s);
    if (replayed == null) {
      readFromFile(s);
    } else {
      // Owed even when the file already held every record: a run that crashed between a
      // checkpoint's rename and its folder fsync left a file only the page cache holds, and the
      // log's records must stay until a checkpoint has replaced it durably.
      s = replayed.snapshot();
      state = replayed.damaged() ? FileState.DAMAGED : s == null ? FileState.DURABLE : FileState.REWRITE;
      publish(s, Origin.READ);
    }
    if (s != null && s.history() != null) {
      // Another node may own it and hold revisions its file does not have yet (its log's).
      List<Revision> newer = ctx.committer().newerThan(location.path(), s.rev());
      if (!newer.isEmpty()) {
        extend(newer);
      }
    }
  }

  /** A snapshot read from the file (or its absence) becomes the document's. */
  private void readFromFile(DocSnapshot disk) {
    if (disk == null) {
      state = FileState.DURABLE; // nothing to secure: a create writes its file durably
    } else if (OutsideEdits.unwrittenIn(disk)) {
      // The revision made of an outside edit exists only here: the file must take it into its
      // history soon, or a second edit would be read as another revision with the same number.
      state = FileState.REWRITE;
      ctx.oweCheckpoint(location.path());
    } else {
      state = FileState.UNSYNCED;
    }
    publish(disk, Origin.READ);
  }

  /**
   * Reloads when the file differs from the snapshot; with {@code verifyContent}, which a caller
   * about to replace the file passes, a file whose stat still matches is also read and its bytes
   * compared. Returns true when another program's edit changed the document.
   */
  boolean reloadIfChanged(boolean verifyContent) throws IOException {
    FileFingerprint now = FileFingerprint.of(location.file());
    DocSnapshot s = snapshot;
    FileFingerprint known = s == null ? FileFingerprint.ABSENT : s.fingerprint();
    boolean ours = state == FileState.SUSPECT;
    if (!ours && now.equals(known) && !(verifyContent && known.contentChanged(location.file()))) {
      return false;
    }
    DocumentLoader.FileBytes read = now.exists() ? DocumentLoader.read(location.file()) : null;
    boolean held = s != null && s.history() != null;
    if (read != null && state.owesFile() && held) {
      // Another writer's checkpoint of revisions this copy holds (a cluster's owner, each round):
      // what OutsideEdits would call touched, known without reading the file as a document.
      // One that holds fewer than the file held before is a stale copy put back: read in full.
      int persisted = s.requireHistory().persistedIn(read.bytes());
      if (persisted >= Math.max(1, s.persistedRevisions())) {
        snapshot = s.withFile(read.fingerprint(), persisted);
        return false;
      }
    }
    DocSnapshot disk = read == null ? null : DocumentLoader.parse(location, read);
    if (held && (read != null || known.exists()) && SaveInProgress.seenHalfway(s, disk)) {
      disk = SaveInProgress.landed(location, s, disk);
    }
    // After a commit whose outcome is unknown, the file says what happened.
    OutsideEdits.Decision d = ours ? new OutsideEdits.Adopt(disk) : OutsideEdits.reconcile(s, state.owesFile(), disk);
    if (d instanceof OutsideEdits.Touched t) {
      snapshot = s.withFile(t.fingerprint(), t.persisted());
      if (t.persisted() < s.persistedRevisions()) {
        rewriteWhatACopyDropped(); // a stale copy with our state put back
      }
      return false;
    }
    if (d instanceof OutsideEdits.AfterOurs a) {
      LOG.warn("{} was edited by another program in a file without revisions {} to {}; the edit becomes"
          + " revision {}, after them", location.path(), a.persisted(), a.oursThrough(), a.merged().rev());
      state = FileState.REWRITE;
      ctx.oweCheckpoint(location.path());
      publish(a.merged(), Origin.READ);
      if (a.persisted() < s.persistedRevisions()) {
        rewriteWhatACopyDropped();
      }
      return true;
    }
    if (d instanceof OutsideEdits.TheirsWin w) {
      ctx.setAside(location.path(), w.lost(), w.why());
      readFromFile(w.disk());
      return true;
    }
    OutsideEdits.Adopt a = (OutsideEdits.Adopt) d;
    readFromFile(a.disk());
    if (a.disk() != null && !ours) {
      syncAdoptedEdit();
    }
    return !ours;
  }

  /**
   * Writes the file again at once after a stale copy was put back over it: the revisions the copy
   * lacks are in no log (its segments went once the file held them), only in this process. When
   * the write fails they stay owed to the next round.
   */
  private void rewriteWhatACopyDropped() {
    state = FileState.REWRITE;
    ctx.oweCheckpoint(location.path());
    try {
      checkpointNow();
    } catch (IOException e) {
      LOG.warn("{}: could not yet write back the revisions an older copy of the file lacks ({}); the next"
          + " checkpoint does", location.path(), StoreErrors.cause(e));
    }
  }

  /**
   * An edit by another program becomes a revision readers see: make it as durable as ours (the
   * editor may never sync it), so that no revision anyone has read can vanish.
   */
  private void syncAdoptedEdit() {
    try {
      ctx.files().syncExisting(root(), location.file());
      if (state == FileState.UNSYNCED) {
        state = FileState.DURABLE;
      }
    } catch (IOException e) {
      LOG.warn("{}: could not sync the edited file yet ({}); the next write does", location.path(), StoreErrors.cause(e));
    }
  }

  /**
   * Appends revisions another node committed (or a dead node's log holds) to this copy; see
   * {@link FollowedRevisions}. They are held here, not (yet) in the file.
   */
  void extend(List<Revision> revisions) throws IOException {
    DocSnapshot s = snapshot;
    if (s == null && !revisions.isEmpty()) {
      reloadIfChanged(false); // created by another node: its file is written before the receipt
      s = snapshot;
    }
    if (s == null || s.history() == null) {
      if (!revisions.isEmpty()) {
        ctx.setAside(location.path(), revisions, "revisions from another node for a document this node cannot read");
      }
      return;
    }
    FollowedRevisions f = FollowedRevisions.onto(s.requireHistory(), revisions);
    for (Revision r : f.joined()) {
      if (r.requestId() != null) {
        ctx.requests().committed(r.requestId(), location.path(), r.rev());
      }
    }
    if (!f.aside().isEmpty()) {
      ctx.setAside(location.path(), f.aside(), "revisions from another node that do not continue this node's history");
    }
    if (f.lines() == null) {
      return;
    }
    FollowedRevisions.Head next = f.head(knownText(s));
    if (next == null) {
      LOG.error("{}: revisions from another node do not reproduce revision {}; reading the file again",
          location.path(), f.history().headRev());
      state = FileState.SUSPECT;
      reloadIfChanged(false);
      return;
    }
    if (next.text() != null) {
      canonical = next.text();
    }
    if (state != FileState.REWRITE && state != FileState.DAMAGED) {
      state = FileState.LOGGED;
    }
    publish(new DocSnapshot(location.path(), location, next.state(), f.history(), f.history().headRev(),
        f.history().head().stateHash(), s.fingerprint(), s.persistedRevisions(), s.failure()), Origin.FOLLOWED);
  }

  /** The canonical text of the snapshot's state; null when it has none (then the text is parsed). */
  private CanonicalText knownText(DocSnapshot s) {
    try {
      return s.state() == null ? null : canonical(s);
    } catch (GramException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------ checkpoints

  /** The size of the file as this copy last read or wrote it (0 when there is none). */
  long fileSize() {
    DocSnapshot s = snapshot;
    return s == null ? 0 : Math.max(0, s.fingerprint().size());
  }

  boolean checkpointNow() throws IOException {
    // An edit by another program is merged (or wins) before anything is written, even one that
    // kept the file's size and modification time: the bytes are compared before a replace.
    reloadIfChanged(true);
    if (state == FileState.DAMAGED) {
      return false; // what the log holds for it is the evidence a repair needs
    }
    DocSnapshot s = snapshot;
    if (s == null || !state.owesFile()) {
      return true;
    }
    if (!s.writable()) {
      return false; // stopped with E_INTEGRITY: its log records stay until someone repairs it
    }
    byte[] bytes = s.requireHistory().fileBytes(GramWriter.write(s.requireState()));
    try {
      ctx.files().replace(root(), location.file(), bytes);
    } catch (DurableFiles.PublishedNotDurable e) {
      // Ours, but not known durable: keep owing it; the next round writes it again.
      snapshot = s.withFile(FileFingerprint.of(location.file(), bytes), s.persistedRevisions());
      state = FileState.REWRITE;
      LOG.warn("checkpoint of {} is not known durable: {}", location.path(), e.getMessage());
      return false;
    } catch (IOException e) {
      LOG.warn("checkpoint of {} failed; its revisions stay in the log: {}", location.path(), StoreErrors.cause(e));
      return false;
    }
    snapshot = s.withFile(FileFingerprint.of(location.file(), bytes), s.requireHistory().revisions().size());
    state = FileState.DURABLE;
    return true;
  }

  /**
   * Before the first revision logged on top of a file this process did not write: the log's
   * record chains onto the file's history, so that history must survive a power cut too. An
   * unsynced file is synced; a file that lacks revisions held here is rewritten with them first.
   */
  void secureFile() throws IOException {
    if (state == FileState.REWRITE) {
      if (!checkpointNow()) {
        throw new IOException("could not write " + location.path() + " before logging a revision on top of it");
      }
    } else if (state == FileState.UNSYNCED) {
      DocSnapshot s = snapshot;
      if (s != null && s.fingerprint().exists()) {
        ctx.files().syncExisting(root(), location.file());
      }
      state = FileState.DURABLE;
    }
  }

  // ------------------------------------------------------------------ after a write

  /** A create's file is written and durable. */
  void created(DocSnapshot next, CanonicalText text) {
    state = FileState.DURABLE;
    canonical = text;
    publish(next, Origin.WRITTEN);
  }

  /** A create's file was published but may not survive: read it again before anything else. */
  void createUnsure() {
    state = FileState.SUSPECT;
  }

  /** A patch's revision is durable in the log (and final): the file lacks it until the next checkpoint. */
  void committed(DocSnapshot next, CanonicalText text) {
    if (state != FileState.REWRITE) {
      state = FileState.LOGGED;
    }
    canonical = text;
    publish(next, Origin.WRITTEN);
  }

  /** The revisions taken over from a dead node's log are held here: the file must take them. */
  void oweFile() {
    DocSnapshot s = snapshot;
    if (s != null && s.history() != null && s.history().revisions().size() > s.persistedRevisions()) {
      state = FileState.LOGGED;
    }
  }

  /**
   * Makes a new snapshot visible to readers and tells the vault where it came from (one read
   * from the file has its request ids indexed again).
   */
  void publish(DocSnapshot next, Origin origin) {
    snapshot = next;
    ctx.published(location.path(), next, origin);
  }

  /** The trusted folder this document lives under: the vault's or its mount's. */
  Path root() {
    return location.mount() == null ? ctx.paths().vaultRoot() : location.mount().root();
  }

  /** The canonical text of the snapshot's state, kept from the last commit when it still is. */
  CanonicalText canonical(DocSnapshot s) {
    CanonicalText t = canonical;
    if (t == null || t.document() != s.requireState()) {
      try {
        t = CanonicalText.of(s.requireState());
      } catch (CanonicalText.NotUnicodeException e) {
        throw new GramException(ErrorCode.E_ARGUMENT, e.getMessage());
      }
      canonical = t;
    }
    return t;
  }
}
