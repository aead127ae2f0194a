package dev.gram.format;

import dev.gram.base.DateSpan;

/**
 * Which field holds a record's date, and its span. The date of a record is its {@code at} for
 * events, {@code observed} for metrics, {@code due} for tasks, and {@code at} for every other
 * type, unless the caller names another field. Lists, recall and the index all ask here, so the
 * rule is written once.
 */
public final class RecordDates {
  private RecordDates() {}

  /** The field that holds a record's date when the caller names none. */
  public static String defaultField(EntityType type) {
    return switch (type) {
      case EVENT -> "at";
      case METRIC -> "observed";
      case TASK -> "due";
      default -> "at";
    };
  }

  /** The raw date value of a record, as written, or {@code null}. */
  public static String raw(Entity e, String field) {
    return e.first(field == null ? defaultField(e.type()) : field);
  }

  /** The span of a record's date (the first value of its date field), or {@code null}. */
  public static DateSpan of(Entity e, String field) {
    return DateSpan.parse(raw(e, field));
  }

  /** True when the record has a date in the filter's window (always, for an inactive filter). */
  public static boolean matches(DateSpan.Filter filter, Entity e) {
    if (filter == null || !filter.active()) {
      return true;
    }
    DateSpan d = of(e, filter.field());
    return d != null && d.meets(filter.window());
  }
}
