package dev.gram.index;

/**
 * The measured choices of the index, passed to the parts that use them. The defaults are what the
 * measurements chose ({@code docs/recall.md} for fusion and auto, {@code docs/performance.md} for
 * the embedder); a test measures an alternative by opening an index with other values. Limits
 * that are safety bounds rather than choices (how deep a search may fetch, how long a recall
 * waits for a write) stay constants of their classes.
 *
 * @param fusion how hybrid fuses its two rankings
 * @param semanticWeight the semantic ranking's weight in a fusion; the keyword ranking has 1 minus this
 * @param autoHybridWords content words from which auto uses hybrid rather than keyword
 * @param autoQuestions the mode auto answers a question asked as a sentence in (when semantic search works)
 * @param embedBatch chunks per call of the embedding model: small, so a search never waits long behind one
 * @param yieldQuietMs searches that ended this recently still count as agents searching
 * @param yieldMaxMs the longest the embedder waits for searches before each batch
 * @param rebuildDelayMs a pause before each document of the background rebuild: 0 but in tests
 *     that watch the server answer while it rebuilds
 */
record IndexTuning(
    HybridFusion.Method fusion,
    double semanticWeight,
    int autoHybridWords,
    RecallRequest.Mode autoQuestions,
    int embedBatch,
    long yieldQuietMs,
    long yieldMaxMs,
    long rebuildDelayMs) {

  static final IndexTuning DEFAULTS = new IndexTuning(HybridFusion.Method.ZSCORE, 0.6, 3, RecallRequest.Mode.HYBRID, 8, 50, 500, 0);

  /** Read at open; a test reaches the index of a server it starts by command line only this way. */
  static final String REBUILD_DELAY_PROPERTY = "gram.index.rebuildDelayMs";

  /** The defaults, with {@link #rebuildDelayMs} from the system property {@value #REBUILD_DELAY_PROPERTY}. */
  static IndexTuning defaults() {
    return DEFAULTS.withRebuildDelayMs(Long.getLong(REBUILD_DELAY_PROPERTY, 0L));
  }

  IndexTuning withFusion(HybridFusion.Method f, double weight) {
    return new IndexTuning(f, weight, autoHybridWords, autoQuestions, embedBatch, yieldQuietMs, yieldMaxMs,
        rebuildDelayMs);
  }

  IndexTuning withAuto(int hybridWords, RecallRequest.Mode questions) {
    return new IndexTuning(fusion, semanticWeight, hybridWords, questions, embedBatch, yieldQuietMs,
        yieldMaxMs, rebuildDelayMs);
  }

  IndexTuning withRebuildDelayMs(long ms) {
    return new IndexTuning(fusion, semanticWeight, autoHybridWords, autoQuestions, embedBatch, yieldQuietMs,
        yieldMaxMs, ms);
  }
}
