package dev.gram.index;

/**
 * What the search index can say about itself at this moment, for {@code gram_capabilities} and
 * for recall answers that must admit they are partial.
 */
public interface IndexStatus {

  /** Counts of documents and embedded chunks. */
  record Stats(int indexedFiles, int pendingFiles, int failedFiles, int embeddedChunks) {}

  /** Whether semantic search works now; {@code reason} says why not when it does not. */
  record Semantic(String status, String reason) {
    public static final String AVAILABLE = "available";
    public static final String UNAVAILABLE = "unavailable";

    public boolean available() {
      return AVAILABLE.equals(status);
    }
  }

  /**
   * How far the index is behind the vault: commits whose receipt went out but that are not yet
   * searchable, and how long the oldest of them has waited.
   */
  record Lag(long commits, long oldestMillis) {
    public static final Lag NONE = new Lag(0, 0);
  }

  Stats stats();

  Semantic semantic();

  /** Units (records and section chunks) the index holds, with a vector or without. */
  default int units() {
    return 0;
  }

  /** Chunks still waiting for their embedding vector. */
  default int unembeddedChunks() {
    return 0;
  }

  default Lag lag() {
    return Lag.NONE;
  }
}
