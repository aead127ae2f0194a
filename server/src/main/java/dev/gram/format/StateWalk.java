package dev.gram.format;

import java.util.List;

/**
 * The states of one history's revisions, asked for in increasing order, each laid onto the one
 * before instead of rebuilt: the next revisions' deltas are applied to the canonical text and only
 * the entities they touch are parsed ({@link CanonicalText#afterDelta}).
 *
 * <p>Why: a read as of an effective time folds the changes of every revision effective by then,
 * each with the state that revision left, and a search of the history ({@code gram_range} with a
 * query) reads what every revision wrote. Rebuilt one by one ({@link History#stateAt}: up to
 * {@link History#CHECKPOINT_EVERY} deltas replayed, then the whole text parsed), each revision
 * cost what the whole document holds: 110–460 ms for one read as of an effective time of a
 * 50-record document of 3,000 revisions. Laid on, a revision costs what it changed, plus one hash
 * of the text.
 *
 * <p>A state given out is the revision's own: its text's hash is the revision's state hash, and
 * the writer is injective (one text, one document). When it is not (the delta's lines did not
 * parse as whole entities, or a far jump ahead), the state is rebuilt by {@link History#stateAt}
 * and the walk goes on from there.
 */
public final class StateWalk {
  private final History history;
  /** The text of revision {@link #at}, or null before the first state. */
  private CanonicalText text;
  private int at = -1;

  public StateWalk(History history) {
    this.history = history;
  }

  /** The state {@code r} left; {@code r} is a revision of this history, at or after the last asked. */
  public GramDocument stateAfter(Revision r) throws IntegrityException {
    int rev = r.rev();
    if (text == null || rev < at || rev - at > History.CHECKPOINT_EVERY) {
      return rebuild(rev);
    }
    List<Revision> revisions = history.revisions();
    CanonicalText t = text;
    for (int next = at + 1; t != null && next <= rev; next++) {
      t = t.afterDelta(revisions.get(next).delta());
    }
    if (t == null || !t.sha256().equals(r.stateHash())) {
      return rebuild(rev);
    }
    text = t;
    at = rev;
    return t.document();
  }

  private GramDocument rebuild(int rev) throws IntegrityException {
    GramDocument state = history.stateAt(rev);
    text = CanonicalText.of(state);
    at = rev;
    return state;
  }
}
