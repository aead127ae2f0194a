package dev.gram.index;

import dev.gram.base.DateSpan;
import java.util.List;

/**
 * One recall: the query, the mode asked for, the filters, and the page ({@code offset} hits
 * skipped, {@code topK} returned).
 */
public record RecallRequest(String query, Mode mode, Filters filters, int topK, int offset) {

  /** How the query is matched. */
  public enum Mode {
    EXACT,
    KEYWORD,
    SEMANTIC,
    HYBRID,
    AUTO;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Mode ofWire(String s) {
      return s == null ? AUTO : valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /**
   * What hits must be: in one of {@code documents} (normalized paths), under {@code folder}
   * ({@code ""} is the vault without its mounts), of {@code type} ({@code document} for body
   * sections), carrying the s-tag {@code scope}, dated within {@code dates}. Null means no filter.
   */
  public record Filters(
      List<String> documents, String folder, String type, String scope, DateSpan.Filter dates) {
    public static final Filters NONE = new Filters(null, null, null, null, null);
  }
}
