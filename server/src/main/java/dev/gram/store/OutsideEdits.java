package dev.gram.store;

import dev.gram.format.GramWriter;
import dev.gram.format.History;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import java.util.List;

/**
 * The rules for a file another program changed (docs/gram-format.md §10 and §14.5), as a pure
 * decision the actor carries out. Another program's edit is never overwritten: it becomes a
 * revision of its own. When the file still begins with some of our history, the revisions of ours
 * it lacks are kept before that edit: those only in the log, and those a stale copy put back over
 * the file dropped (it held them all, then went back to an earlier revision). When it does not
 * (the file was replaced by another history, or deleted), the file wins, and our revisions it
 * lacks are set aside, never dropped; a deleted file sets aside those only in the log.
 */
final class OutsideEdits {
  private OutsideEdits() {}

  /** What to do about the file as it is now. */
  sealed interface Decision {}

  /** Take the file as it is (nothing of ours is only in the log, or the file holds it all and more). */
  record Adopt(DocSnapshot disk) implements Decision {}

  /** Same history, and a state we already hold: touched, copied back or read again, not edited. */
  record Touched(FileFingerprint fingerprint, int persisted) implements Decision {}

  /** Its edit becomes the revision after ours. */
  record AfterOurs(DocSnapshot merged, int persisted, int oursThrough) implements Decision {}

  /** The file does not continue our history: it wins, and {@code lost} is set aside. */
  record TheirsWin(DocSnapshot disk, List<Revision> lost, String why) implements Decision {}

  /**
   * @param mine our snapshot, whose revisions from {@code mine.persistedRevisions()} on are only in
   *     the log (or in memory), when {@code oursPending}; otherwise the file held all of them
   * @param disk the file as read now, or null when it is gone
   */
  static Decision reconcile(DocSnapshot mine, boolean oursPending, DocSnapshot disk) {
    if (mine == null || mine.history() == null) {
      return new Adopt(disk);
    }
    History ours = mine.requireHistory();
    int size = ours.revisions().size();
    if (disk != null && disk.history() != null) {
      int persisted = disk.persistedRevisions();
      if (persisted > size && disk.history().revision(size - 1).chain().equals(ours.head().chain())) {
        // The file holds all of ours and more (another cluster node wrote revisions this copy had
        // not heard of yet): nothing of ours is only here any more.
        return new Adopt(disk);
      }
      if (persisted >= 1
          && persisted <= size
          && ours.revision(persisted - 1).chain().equals(disk.history().revision(persisted - 1).chain())) {
        // The file's state is its own last revision, or the one we already hold on top of it (an
        // edit adopted before, not yet in the file, read again because its stat changed: an
        // editor's truncate and write land in different clock ticks). Either way nothing is new,
        // unless the file went back from what it held: a stale copy was put back (an editor's
        // buffer saved over a newer file, a checkout, a sync), and its state is an edit too.
        boolean wentBack = persisted < (oursPending ? mine.persistedRevisions() : size);
        if (!oursPending && !wentBack) {
          return new Adopt(disk); // it holds all of ours, and maybe an edit on top: read as it is
        }
        if (disk.hash().equals(mine.hash()) || (!wentBack && disk.history().revisions().size() == persisted)) {
          return new Touched(disk.fingerprint(), persisted);
        }
        List<String> topLines = LineDiff.lines(GramWriter.write(disk.requireState()));
        Revision ext = DocumentLoader.externalRevision(
            ours, mine.requireState(), disk.state(), topLines, disk.hash(), disk.head().recordedAt());
        History merged = ours.append(ext, topLines);
        DocSnapshot s = new DocSnapshot(mine.path(), mine.location(), disk.state(), merged, ext.rev(), disk.hash(),
            disk.fingerprint(), persisted, null);
        return new AfterOurs(s, persisted, ours.headRev());
      }
      if (!oursPending && mine.persistedRevisions() == 0) {
        return new Adopt(disk); // ours is only what the file, which had no history, gave: nothing to keep
      }
      // Another history: the file wins, and every revision of ours it lacks is set aside, those
      // the replaced file held as well as those only in the log.
      int from = commonRevisions(ours, disk.history(), persisted);
      return new TheirsWin(disk, List.copyOf(ours.revisions().subList(from, size)),
          "the file was replaced by one whose history does not hold these revisions");
    }
    if (!oursPending) {
      return new Adopt(disk);
    }
    int from = Math.max(0, mine.persistedRevisions());
    List<Revision> lost = ours.revisions().subList(from, size);
    String why = disk == null
        ? "the file was deleted by another program before these revisions were written into it"
        : "the file was replaced by one that does not continue this history before these revisions were"
            + " written into it";
    return new TheirsWin(disk, List.copyOf(lost), why);
  }

  /**
   * How many revisions, from the first, {@code ours} and the first {@code persisted} of {@code
   * theirs} have in common. Each revision's chain hash covers every revision before it, so the
   * revisions held in common are a prefix, found by bisection.
   */
  private static int commonRevisions(History ours, History theirs, int persisted) {
    int lo = 0;
    int hi = Math.min(persisted, ours.revisions().size());
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (ours.revision(mid - 1).chain().equals(theirs.revision(mid - 1).chain())) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Whether the history holds a revision that neither the file nor the log holds: an edit by
   * another program, turned into a revision when it was read. A revision logged on top of it
   * would not chain onto what a restart reads, so the file must take it into its history first.
   */
  static boolean unwrittenIn(DocSnapshot s) {
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

  /** Whether the history records an edit by another program after revision {@code base}. */
  static boolean since(DocSnapshot s, int base) {
    List<Revision> revs = s.requireHistory().revisions();
    for (int i = Math.max(0, base + 1); i < revs.size(); i++) {
      if (Revision.EXTERNAL.equals(revs.get(i).actor())) {
        return true;
      }
    }
    return false;
  }
}
