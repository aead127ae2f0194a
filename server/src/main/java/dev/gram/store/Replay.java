package dev.gram.store;

import dev.gram.format.GramDocument;
import dev.gram.format.GramParser;
import dev.gram.format.GramWriter;
import dev.gram.format.Hashes;
import dev.gram.format.History;
import dev.gram.format.HistoryCodec;
import dev.gram.format.IntegrityException;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a document read from its file up to date with the revisions the log holds for it. Runs
 * in the document's mailbox when it is first loaded, so no request sees it before.
 *
 * <p>A record extends the file's history when it is the next revision and its chain hash follows
 * the head's; one that is already in the file (same revision, same chain) is skipped, which makes
 * replay idempotent. The replayed text must reproduce the last record's state hash. If another
 * program edited the file's state while the server was down, that edit is adopted after the
 * replayed revisions, the same order the running server uses (see {@code DocumentActor}).
 *
 * <p>A record that neither extends nor repeats the history was never part of it: either the file
 * was replaced since (the record is set aside, see {@link WriteAheadLog#setAside}) or the log is
 * damaged in a way that hides which (the document is stopped with {@code E_INTEGRITY}).
 */
final class Replay {
  private Replay() {}

  /**
   * @param snapshot the document as it may serve now
   * @param setAside acknowledged revisions that no longer belong to its file
   * @param applied how many records were replayed into it
   * @param damaged true when the log's damage stopped the document: its records must stay
   */
  record Outcome(DocSnapshot snapshot, List<Revision> setAside, int applied, boolean damaged) {
    static Outcome stopped(DocSnapshot disk, String why) {
      return new Outcome(disk.failing(why), List.of(), 0, true);
    }
  }

  /**
   * @param damage why the log's damage stops this document, or null
   * @param damagedFrom the first sequence number the damage may hide: the records before it are
   *     replayed (what was acknowledged before the damage stays readable), the rest stay in the
   *     log for a person to repair
   */
  static Outcome apply(DocSnapshot disk, List<LogRecord.RevisionRecord> records, String damage, long damagedFrom,
      String unattributed) {
    if (disk == null) {
      return new Outcome(null, revisions(records), 0, false);
    }
    if (damage != null) {
      List<LogRecord.RevisionRecord> whole = new ArrayList<>();
      for (LogRecord.RevisionRecord r : records) {
        if (r.seq() < damagedFrom) {
          whole.add(r);
        }
      }
      Outcome before = apply(disk, whole, null, Long.MAX_VALUE, unattributed);
      DocSnapshot s = before.snapshot() == null || before.damaged() ? disk : before.snapshot();
      return new Outcome(s.failing(damage), List.of(), before.damaged() ? 0 : before.applied(), true);
    }
    if (disk.history() == null || disk.persistedRevisions() == 0) {
      // No history in the file to extend: it was replaced or cannot be read.
      return mismatch(disk, records, 0, unattributed);
    }
    int persisted = disk.persistedRevisions();
    History h;
    try {
      h = disk.history().prefix(persisted);
    } catch (IntegrityException e) {
      return Outcome.stopped(disk, e.getMessage());
    }
    List<String> lines = h.headLines();
    List<Revision> aside = new ArrayList<>();
    int applied = 0;
    for (LogRecord.RevisionRecord rec : records) {
      Revision r = rec.revision();
      if (r.rev() <= h.headRev()) {
        if (h.revision(r.rev()).chain().equals(r.chain())) {
          continue;
        }
      } else if (r.rev() == h.headRev() + 1 && HistoryCodec.chain(h.head().chain(), r).equals(r.chain())) {
        try {
          lines = LineDiff.apply(lines, r.delta());
        } catch (IllegalArgumentException e) {
          return Outcome.stopped(disk, "write-ahead log record " + rec.seq() + " for revision " + r.rev()
              + " does not apply to the document");
        }
        h = h.append(r, lines);
        applied++;
        continue;
      }
      if (unattributed != null) {
        return Outcome.stopped(disk, unattributed);
      }
      aside.add(r);
    }
    if (applied == 0) {
      return new Outcome(disk, aside, 0, false);
    }
    String text = LineDiff.join(lines);
    String hash = Hashes.sha256(text);
    if (!hash.equals(h.head().stateHash())) {
      return Outcome.stopped(disk, "the write-ahead log's revisions do not reproduce the state of revision "
          + h.headRev());
    }
    GramParser.Result parsed = GramParser.parse(text);
    if (!(parsed instanceof GramParser.Success ok)) {
      return Outcome.stopped(disk, "revision " + h.headRev() + " from the write-ahead log does not parse: " + parsed);
    }
    GramDocument state = ok.file().state();
    DocSnapshot replayed =
        new DocSnapshot(disk.path(), disk.location(), state, h, h.headRev(), hash, disk.fingerprint(), persisted, null);
    if (disk.history().revisions().size() > persisted) {
      // The file's state was edited by another program while we were down: after our revisions.
      List<String> topLines = LineDiff.lines(GramWriter.write(disk.state()));
      Revision ext = DocumentLoader.externalRevision(h, state, disk.state(), topLines, disk.hash(), disk.head().recordedAt());
      History adopted = h.append(ext, topLines);
      replayed = new DocSnapshot(
          disk.path(), disk.location(), disk.state(), adopted, ext.rev(), disk.hash(), disk.fingerprint(), persisted, null);
    }
    return new Outcome(replayed, aside, applied, false);
  }

  private static Outcome mismatch(
      DocSnapshot disk, List<LogRecord.RevisionRecord> records, int applied, String unattributed) {
    if (unattributed != null) {
      return Outcome.stopped(disk, unattributed);
    }
    return new Outcome(disk, revisions(records), applied, false);
  }

  private static List<Revision> revisions(List<LogRecord.RevisionRecord> records) {
    List<Revision> out = new ArrayList<>();
    for (LogRecord.RevisionRecord r : records) {
      out.add(r.revision());
    }
    return out;
  }
}
