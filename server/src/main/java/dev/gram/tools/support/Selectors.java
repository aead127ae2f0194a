package dev.gram.tools.support;

import dev.gram.base.DateSpan;
import dev.gram.format.EffectiveState;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * Historical selectors. {@code revision} names one revision as it was written; {@code
 * recorded_at} the newest revision written at or before that time; {@code effective_at} the
 * document as its facts stood at that time, field by field (docs/gram-format.md §11), as recorded
 * up to now or, given together with {@code recorded_at}, up to then. {@code revision} stands alone.
 */
public final class Selectors {
  private Selectors() {}

  /**
   * What a request reads: revision {@code rev} as written when {@code effective} is null, else
   * the document as of effective time {@code effective}, as recorded up to revision {@code rev}.
   */
  public record Point(int rev, Instant effective) {
    public Point {
      if (rev < 0) {
        throw new IllegalArgumentException("rev " + rev);
      }
    }

    /** The same reading, recorded up to another revision (a cursor pins the one it paged). */
    public Point pinned(int pinnedRev) {
      return new Point(pinnedRev, effective);
    }
  }

  /** Whether the arguments name any historical selector. */
  public static boolean present(JsonObject args) {
    return args.containsKey("revision") || args.containsKey("recorded_at") || args.containsKey("effective_at");
  }

  /** What the selector names in this document; the current revision when none is given. */
  public static Point point(DocSnapshot s, JsonObject args) {
    boolean revision = args.getValue("revision") != null;
    boolean recorded = args.getValue("recorded_at") != null;
    boolean effective = args.getValue("effective_at") != null;
    if (revision && (recorded || effective)) {
      throw new GramException(
          ErrorCode.E_ARGUMENT, "give revision alone, or recorded_at, effective_at or both");
    }
    if (revision) {
      int rev = args.getInteger("revision");
      if (rev > s.rev()) {
        throw new GramException(
            ErrorCode.E_ARGUMENT, "revision " + rev + " does not exist; " + s.path() + " is at revision " + s.rev());
      }
      return new Point(rev, null);
    }
    int upTo = s.rev();
    if (recorded) {
      Instant t = time(args.getString("recorded_at"), "recorded_at");
      upTo = s.revisionRecordedAt(t);
      if (upTo < 0) {
        throw notRecorded(s, "recorded_at", args.getString("recorded_at"));
      }
    }
    if (effective) {
      Instant t = time(args.getString("effective_at"), "effective_at");
      if (EffectiveState.effectiveRevisions(s.requireHistory(), t, upTo).isEmpty()) {
        throw notRecorded(s, "effective_at", args.getString("effective_at"));
      }
      return new Point(upTo, t);
    }
    return new Point(upTo, null);
  }

  /**
   * Reads a selector time. A date without a time means the end of that day: "as of 2026-10-12"
   * includes what happened on the 12th.
   */
  public static Instant time(String s, String name) {
    DateSpan span = DateSpan.parse(s);
    if (span == null) {
      throw new GramException(ErrorCode.E_ARGUMENT, name + " is not an ISO time: " + s);
    }
    Instant exact = Times.parseInstant(s);
    boolean hasTime = exact != null && s.contains("T");
    return hasTime ? exact : span.end().minusMillis(1);
  }

  private static GramException notRecorded(DocSnapshot s, String name, String value) {
    return new GramException(
        ErrorCode.E_TIME_NOT_RECORDED,
        "No revision of " + s.path() + " is at or before " + name + " " + value
            + "; its first revision was recorded at " + Times.format(s.revisions().get(0).recordedAt()),
        new JsonObject().put("first_recorded_at", Times.format(s.revisions().get(0).recordedAt())));
  }
}
