package dev.gram.store;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchEngine;
import dev.gram.format.CanonicalText;
import dev.gram.format.GramDocument;
import dev.gram.format.History;
import dev.gram.format.HistoryCodec;
import dev.gram.format.LineDiff;
import dev.gram.format.Revision;
import dev.gram.format.StateDiff;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Turns a document's state and what a write does to it into the next revision: its changes,
 * forward delta, state hash and chain, the history with it, and the text the file will hold. Pure:
 * no I/O, no clock (the caller passes the time), no threads; the actor makes the result durable.
 */
final class CommitBuilder {
  private CommitBuilder() {}

  /**
   * A revision built and not yet durable.
   *
   * @param text the new state's canonical text, kept so the next commit reuses its unchanged
   *     entities
   */
  record Built(Revision revision, History history, CanonicalText text, GramDocument state) {
    String hash() {
      return revision.stateHash();
    }
  }

  /** Revision 0 of a new document, recorded at {@code now}. */
  static Built create(WriteCommand.Create c, Instant now) {
    GramDocument initial = c.initial();
    CanonicalText text = render(() -> CanonicalText.of(initial));
    List<String> lines = text.lines();
    Revision rev0 =
        HistoryCodec.sealed(
            null,
            new Revision(0, now, c.effectiveAt(), Revision.AGENT, c.by(), null, null,
                StateDiff.changes(null, initial), LineDiff.diff(List.of(), lines), text.sha256(), ""));
    return new Built(rev0, History.first(rev0, lines), text, initial);
  }

  /** The file's bytes for a new document's revision 0: its state, then its one-entry history. */
  static byte[] fileBytes(Built b) {
    return b.history().fileBytes(new String(b.text().utf8(), StandardCharsets.UTF_8));
  }

  /**
   * The revision after {@code s}'s head that {@code outcome} makes, recorded at {@code now} but
   * strictly after the head: commits through the log take less than a millisecond, and a read by
   * recorded time must still be able to name every revision.
   *
   * @param before the canonical text of {@code s}'s state
   */
  static Built patch(DocSnapshot s, CanonicalText before, PatchEngine.Outcome outcome, WriteCommand.Patch p, Instant now) {
    GramDocument next = outcome.state();
    CanonicalText after = render(() -> before.next(next));
    History history = s.requireHistory();
    Revision head = history.head();
    Instant floor = head.recordedAt().plusMillis(1);
    Instant at = now.isBefore(floor) ? floor : now;
    Revision rev =
        HistoryCodec.sealed(
            head.chain(),
            new Revision(head.rev() + 1, at, p.effectiveAt(), Revision.AGENT, p.by(), p.requestId(), p.digest(),
                StateDiff.changes(s.requireState(), next), before.deltaTo(after), after.sha256(), ""));
    return new Built(rev, history.append(rev, after.lines()), after, next);
  }

  /** Renders canonical text, refusing what is not Unicode text as the caller's mistake. */
  private static CanonicalText render(Supplier<CanonicalText> r) {
    try {
      return r.get();
    } catch (CanonicalText.NotUnicodeException e) {
      throw new GramException(ErrorCode.E_ARGUMENT, e.getMessage());
    }
  }
}
