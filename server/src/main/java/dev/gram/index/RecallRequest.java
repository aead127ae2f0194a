package dev.gram.index;

import dev.gram.base.DateSpan;
import java.util.List;

/**
 * One recall: the query, the mode asked for, the filters, the page ({@code offset} hits skipped,
 * {@code topK} returned), and when the caller no longer wants the answer ({@code stop}).
 */
public record RecallRequest(String query, Mode mode, Filters filters, int topK, int offset, Stop stop) {

  /** A recall no deadline or cancel stops (work done outside a call, tests). */
  public RecallRequest(String query, Mode mode, Filters filters, int topK, int offset) {
    this(query, mode, filters, topK, offset, Stop.NEVER);
  }

  /**
   * The caller's deadline and cancel, as the search thread sees them: it waits for writes only as
   * long as the caller does, and checks between the steps of a search, so a recall whose caller
   * already answered {@code E_TIMEOUT} or was cancelled does not keep a search thread busy.
   */
  public interface Stop {
    Stop NEVER = new Stop() {
      @Override
      public long leftMillis() {
        return Long.MAX_VALUE;
      }

      @Override
      public void check() {}

      @Override
      public boolean stopped() {
        return false;
      }
    };

    /** Milliseconds until the deadline (0 once it has passed). */
    long leftMillis();

    /**
     * True when the server itself asks (its warm-up): the embedder gives way to agents' searches,
     * not to this one.
     */
    default boolean background() {
      return false;
    }

    /** Throws the caller's error once the deadline has passed or the client cancelled. */
    void check();

    /**
     * True once {@link #check} would throw. Lucene asks it while it scores, so a search over a large
     * index stops soon after its caller stopped waiting, not when it is done.
     */
    default boolean stopped() {
      try {
        check();
        return false;
      } catch (RuntimeException e) {
        return true;
      }
    }
  }

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
