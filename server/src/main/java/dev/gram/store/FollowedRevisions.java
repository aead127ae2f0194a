package dev.gram.store;

import dev.gram.format.CanonicalText;
import dev.gram.format.GramDocument;
import dev.gram.format.GramParser;
import dev.gram.format.Hashes;
import dev.gram.format.History;
import dev.gram.format.HistoryCodec;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import java.util.ArrayList;
import java.util.List;

/**
 * Revisions another node committed (or a dead node's log holds), laid onto this copy's history:
 * each must be the next revision and chain onto the head; one already held is skipped; one that
 * cannot join is kept aside, never dropped. Pure: the actor publishes what this gives.
 *
 * @param history the history with every revision that joined
 * @param lines the new head's text as lines, or null when none joined
 * @param joined the revisions that joined, in order
 * @param aside the revisions that could not join
 */
record FollowedRevisions(History history, List<String> lines, List<Revision> joined, List<Revision> aside) {

  static FollowedRevisions onto(History h, List<Revision> revisions) {
    List<String> lines = null;
    List<Revision> joined = new ArrayList<>();
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
      joined.add(r);
    }
    return new FollowedRevisions(h, lines, joined, aside);
  }

  /** The new head's state, and its canonical text when it was laid on delta by delta. */
  record Head(GramDocument state, CanonicalText text) {}

  /**
   * The new head's state (call only when some revision joined), or null when the revisions do not
   * reproduce its hash. Each joined delta is laid onto {@code known}, the canonical text of the
   * state before them, parsing only the entities it touched (a follower takes every revision of
   * every document: parsing the whole text each time cost what the document holds); the whole
   * text is parsed only when that gives another hash, or {@code known} is null.
   */
  Head head(CanonicalText known) {
    String want = history.head().stateHash();
    CanonicalText t = known;
    for (int i = 0; t != null && i < joined.size(); i++) {
      t = t.afterDelta(joined.get(i).delta());
    }
    if (t != null && t.sha256().equals(want)) {
      return new Head(t.document(), t);
    }
    String text = LineDiff.join(lines);
    if (GramParser.parse(text) instanceof GramParser.Success ok && Hashes.sha256(text).equals(want)) {
      return new Head(ok.file().state(), null);
    }
    return null;
  }
}
