package dev.gram.tools.support;

import dev.gram.base.DateSpan;
import dev.gram.format.Times;
import dev.gram.store.DocSnapshot;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * Historical selectors: {@code revision}, {@code recorded_at} (the newest revision written at or
 * before that time) or {@code effective_at} (the newest revision whose facts happened at or before
 * that time; a revision without effective_at happened when it was recorded). At most one.
 */
public final class Selectors {
  private Selectors() {}

  /** Whether the arguments name any historical selector. */
  public static boolean present(JsonObject args) {
    return args.containsKey("revision") || args.containsKey("recorded_at") || args.containsKey("effective_at");
  }

  /** The revision the selector names in this document; the current one when none is given. */
  public static int revision(DocSnapshot s, JsonObject args) {
    int given = 0;
    for (String k : new String[] {"revision", "recorded_at", "effective_at"}) {
      if (args.getValue(k) != null) {
        given++;
      }
    }
    if (given > 1) {
      throw new GramException(ErrorCode.E_ARGUMENT, "give at most one of revision, recorded_at and effective_at");
    }
    if (args.getValue("revision") != null) {
      int rev = args.getInteger("revision");
      if (rev > s.rev()) {
        throw new GramException(
            ErrorCode.E_ARGUMENT, "revision " + rev + " does not exist; " + s.path() + " is at revision " + s.rev());
      }
      return rev;
    }
    if (args.getValue("recorded_at") != null) {
      Instant t = time(args.getString("recorded_at"), "recorded_at");
      int rev = s.revisionRecordedAt(t);
      if (rev < 0) {
        throw notRecorded(s, "recorded_at", args.getString("recorded_at"));
      }
      return rev;
    }
    if (args.getValue("effective_at") != null) {
      Instant t = time(args.getString("effective_at"), "effective_at");
      int rev = s.revisionEffectiveAt(t);
      if (rev < 0) {
        throw notRecorded(s, "effective_at", args.getString("effective_at"));
      }
      return rev;
    }
    return s.rev();
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
