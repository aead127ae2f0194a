package dev.gram.store;

import dev.gram.format.GramWriter;
import dev.gram.format.History;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import java.util.List;

/**
 * The rules for a file another program changed (docs/gram-format.md §10 and §14.5), as a pure
 * decision the actor carries out. Another program's edit is never overwritten: it becomes a
 * revision of its own. When some of our revisions are only in the log, they are kept before that
 * edit if the file still continues their history; when it does not (the file was replaced, deleted,
 * or its history rewritten), the file wins, and our revisions it lacks are set aside, never dropped.
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
   *     the log (or in memory), when {@code oursPending}
   * @param disk the file as read now, or null when it is gone
   */
  static Decision reconcile(DocSnapshot mine, boolean oursPending, DocSnapshot disk) {
    if (!oursPending || mine == null || mine.history() == null) {
      return new Adopt(disk);
    }
    History ours = mine.requireHistory();
    if (disk != null && disk.history() != null) {
      int persisted = disk.persistedRevisions();
      int size = ours.revisions().size();
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
        // editor's truncate and write land in different clock ticks). Either way nothing is new.
        if (disk.history().revisions().size() == persisted || disk.hash().equals(mine.hash())) {
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
    }
    int from = Math.max(0, mine.persistedRevisions());
    List<Revision> lost = ours.revisions().subList(from, ours.revisions().size());
    String why = disk == null
        ? "the file was deleted by another program before these revisions were written into it"
        : "the file was replaced by one that does not continue this history before these revisions were"
            + " written into it";
    return new TheirsWin(disk, List.copyOf(lost), why);
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
