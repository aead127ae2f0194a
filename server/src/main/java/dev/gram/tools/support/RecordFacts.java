package dev.gram.tools.support;

import dev.gram.base.DateSpan;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the reading tools derive from a record's fields: whether it is open work, how its
 * priority ranks, how its dates are shortened, whether it is an image, and when a decision was
 * implemented.
 */
public final class RecordFacts {
  private RecordFacts() {}

  /**
   * Statuses of work that is over: left out of a brief's open records. An accepted (approved,
   * decided) decision is settled work, like a completed task.
   */
  public static final Set<String> FINISHED =
      Set.of(
          "completed", "complete", "done", "closed", "resolved", "fixed", "cancelled", "canceled",
          "accepted", "approved", "decided",
          "superseded", "replaced", "rejected", "abandoned", "archived", "obsolete", "retired",
          "dropped", "wontfix", "won't do", "succeeded", "failed", "mitigated", "invalidated",
          "expired");

  /** Statuses of work not yet taken up: also left out of a brief's open records. */
  public static final Set<String> PROPOSED = Set.of("proposed", "draft", "suggested", "idea");

  private static final Pattern DAY_PREFIX = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}.*", Pattern.DOTALL);
  private static final Pattern IMAGE =
      Pattern.compile(".*\\.(png|jpe?g|gif|webp|svg|avif|bmp)([?#].*)?$", Pattern.CASE_INSENSITIVE);

  /** The status {@code x}, or {@code null}. */
  public static String status(Entity e) {
    return e.first("x");
  }

  /** The priority {@code p}, or {@code null}. */
  public static String priority(Entity e) {
    return e.first("p");
  }

  private static String norm(String s) {
    return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Work under way: a work type ({@link EntityType#isWork}) with a status that is neither proposed
   * nor finished. A record without a status is not listed: nothing says it was taken up (the
   * contract's own brief leaves a decision without status out of {@code open}).
   */
  public static boolean isOpenWork(Entity e) {
    if (!e.type().isWork()) {
      return false;
    }
    String x = norm(status(e));
    return !x.isEmpty() && !FINISHED.contains(x) && !PROPOSED.contains(x);
  }

  /** Blockers first, then risks, then the other work types. */
  public static int workRank(Entity e) {
    if (e.type() == EntityType.BLOCKER) {
      return 0;
    }
    return e.type() == EntityType.RISK ? 1 : 2;
  }

  /** high, medium, low, then anything else or none. */
  public static int priorityRank(Entity e) {
    switch (norm(priority(e))) {
      case "high":
        return 0;
      case "medium":
        return 1;
      case "low":
        return 2;
      default:
        return 3;
    }
  }

  /** A date that starts with YYYY-MM-DD shortened to those 10 characters; others as written. */
  public static String shortDate(String v) {
    if (v == null) {
      return null;
    }
    return DAY_PREFIX.matcher(v).matches() ? v.substring(0, 10) : v;
  }

  /** An asset whose {@code ref} names a picture. */
  public static boolean isImageAsset(Entity e) {
    String ref = e.first("ref");
    return e.type() == EntityType.ASSET && ref != null && IMAGE.matcher(ref.strip()).matches();
  }

  /**
   * For each decision of a document that some event of the same document implements (a link
   * {@code implements} from the event, or a REL edge event-implements-decision), the date written
   * on the earliest such event ({@code at} as written; events without a readable {@code at} do
   * not count).
   */
  public static Map<String, String> implementedDates(GramDocument doc) {
    Map<String, String> out = new HashMap<>();
    Map<String, Instant> when = new HashMap<>();
    String prefix = doc.id() + "/";
    for (Entity r : doc.records()) {
      if (r.type() == EntityType.EVENT) {
        for (Link l : r.links()) {
          if (l.predicate().equals("implements")) {
            consider(doc, local(l.target(), prefix), r, out, when);
          }
        }
      } else if (r.type() == EntityType.RELATION && "implements".equals(r.first("rel"))) {
        String from = local(r.first("from"), prefix);
        Entity event = from == null ? null : doc.record(from);
        if (event != null && event.type() == EntityType.EVENT) {
          consider(doc, local(r.first("to"), prefix), event, out, when);
        }
      }
    }
    return out;
  }

  private static String local(String target, String prefix) {
    if (target == null) {
      return null;
    }
    return target.startsWith(prefix) ? target.substring(prefix.length()) : target;
  }

  private static void consider(
      GramDocument doc, String decisionId, Entity event, Map<String, String> out, Map<String, Instant> when) {
    Entity d = decisionId == null ? null : doc.record(decisionId);
    if (d == null || d.type() != EntityType.DECISION) {
      return;
    }
    String at = event.first("at");
    DateSpan span = DateSpan.parse(at);
    if (span == null) {
      return;
    }
    Instant seen = when.get(decisionId);
    if (seen == null || span.start().isBefore(seen)) {
      when.put(decisionId, span.start());
      out.put(decisionId, at);
    }
  }

  /** A record type written as its name or code, in any case; {@code null} when it is neither. */
  public static EntityType type(String word) {
    EntityType t = EntityType.ofRecordWord(word.toLowerCase(Locale.ROOT));
    return t != null ? t : EntityType.ofRecordWord(word.toUpperCase(Locale.ROOT));
  }

  /** Comma- or space-separated words, lowercased. */
  public static List<String> words(String s) {
    if (s == null || s.isBlank()) {
      return List.of();
    }
    return List.of(s.strip().toLowerCase(Locale.ROOT).split("\\s*,\\s*|\\s+"));
  }

  /** Whether the record carries one of these tags (case-insensitive). */
  public static boolean hasAnyTag(Entity e, List<String> tags) {
    for (String t : e.values("tag")) {
      if (tags.contains(norm(t))) {
        return true;
      }
    }
    return false;
  }

  public static boolean statusIn(Entity e, List<String> statuses) {
    return statuses.contains(norm(status(e)));
  }
}
