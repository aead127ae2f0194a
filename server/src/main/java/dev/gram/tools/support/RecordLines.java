package dev.gram.tools.support;

import dev.gram.format.Entity;
import dev.gram.format.EntityType;

/**
 * A record as one line of Markdown for agents, the form gram_read shows where the body places a
 * record:
 *
 * <pre>
 * **Title** · type `id` · x · p · at 2026-10-12 · due 2026-11-01 · 42 ms · observed 2026-10-12 · replaces `old`
 * the description d, when there is one, on the next line
 * </pre>
 *
 * <p>Type, status {@code x} and priority {@code p} are the raw values. {@code at} and {@code
 * observed} values that start with a day are cut to the day; a decision without {@code at} shows
 * {@code implemented} and the date of its earliest implementing event instead; a metric shows its
 * first {@code value} and its {@code unit}. Everything else (owner, tags, sources, refs, other
 * links, further values) is left to gram_context.
 */
public final class RecordLines {
  private RecordLines() {}

  /** The record's line, and its description on the next line when it has one. */
  public static String line(BodyRefs.Ref r, BodyRefs refs) {
    String head = head(r, refs, true);
    String d = r.entity().first("d");
    return d == null || d.isBlank() ? head : head + "\n" + d;
  }

  /** The first line; {@code withType} false leaves the type out (a collection heading has it). */
  public static String head(BodyRefs.Ref r, BodyRefs refs, boolean withType) {
    Entity e = r.entity();
    StringBuilder sb = new StringBuilder();
    if (RecordFacts.isImageAsset(e)) {
      sb.append("![").append(e.title()).append("](").append(e.first("ref").strip()).append(')');
    } else {
      sb.append("**").append(e.title()).append("**");
    }
    sb.append(" · ");
    if (withType) {
      sb.append(e.type().typeName()).append(' ');
    }
    sb.append('`').append(r.shownId()).append('`');
    if (e.type() == EntityType.RELATION) {
      append(sb, e.first("from") + " " + e.first("rel") + " " + e.first("to"));
    }
    append(sb, e.first("x"));
    append(sb, e.first("p"));
    String at = e.first("at");
    if (at != null) {
      append(sb, "at " + RecordFacts.shortDate(at));
    } else {
      String implemented = refs.implemented(r);
      if (implemented != null) {
        append(sb, "implemented " + RecordFacts.shortDate(implemented));
      }
    }
    String due = e.first("due");
    if (due != null) {
      append(sb, "due " + due);
    }
    String value = e.first("value");
    if (value != null) {
      String unit = e.first("unit");
      append(sb, unit == null ? value : value + " " + unit);
    }
    String observed = e.first("observed");
    if (observed != null) {
      append(sb, "observed " + RecordFacts.shortDate(observed));
    }
    for (String target : refs.replaces(r)) {
      append(sb, "replaces `" + target + "`");
    }
    return sb.toString();
  }

  private static void append(StringBuilder sb, String part) {
    if (part != null && !part.isBlank()) {
      sb.append(" · ").append(part);
    }
  }

  /** A placement that names nothing readable. */
  public static String unresolved(String ref) {
    return "`" + ref + "` · unresolved";
  }
}
