package dev.gram.index;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether semantic recall works at this moment: turned off, loading its model, ready, or failed
 * to load (with the reason). The model is probed in the background; until it answers, semantic
 * requests fall back to keyword search and say why.
 */
final class SemanticState {
  private static final Logger LOG = LoggerFactory.getLogger(SemanticState.class);

  enum Phase {
    OFF,
    LOADING,
    READY,
    FAILED
  }

  static final String OFF_REASON = "EMBEDDING_DISABLED: semantic search is turned off (--no-semantic)";
  static final String LOADING_REASON = "EMBEDDING_LOADING: the embedding model is still loading";

  private volatile Phase phase;
  private volatile String reason;
  private volatile EmbeddingModel.Encoder encoder;
  private final CompletableFuture<EmbeddingModel.Encoder> ready = new CompletableFuture<>();

  private SemanticState(Phase phase, String reason) {
    this.phase = phase;
    this.reason = reason;
  }

  static SemanticState off() {
    SemanticState s = new SemanticState(Phase.OFF, OFF_REASON);
    s.ready.completeExceptionally(new IllegalStateException(OFF_REASON));
    return s;
  }

  /** Starts probing: {@code model} completes with a working encoder or fails with the reason. */
  static SemanticState probing(CompletableFuture<EmbeddingModel.Encoder> model) {
    SemanticState s = new SemanticState(Phase.LOADING, LOADING_REASON);
    model.whenComplete(
        (enc, err) -> {
          if (err == null) {
            s.encoder = enc;
            s.phase = Phase.READY;
            s.reason = null;
            s.ready.complete(enc);
          } else {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            s.reason = "EMBEDDING_UNAVAILABLE: " + describe(cause);
            s.phase = Phase.FAILED;
            LOG.warn("semantic search is unavailable: {}", s.reason);
            s.ready.completeExceptionally(cause);
          }
        });
    return s;
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    String name = t.getClass().getSimpleName();
    return m == null || m.isBlank() ? name : name + ": " + m.lines().findFirst().orElse(m);
  }

  Phase phase() {
    return phase;
  }

  /** False only when turned off or failed: work queued for the model may still be done. */
  boolean wanted() {
    Phase p = phase;
    return p == Phase.LOADING || p == Phase.READY;
  }

  boolean ready() {
    return phase == Phase.READY;
  }

  /** The encoder, or {@code null} when not ready. */
  EmbeddingModel.Encoder encoder() {
    return encoder;
  }

  CompletableFuture<EmbeddingModel.Encoder> whenReady() {
    return ready;
  }

  /** Why semantic search does not work now, or {@code null} when it does. */
  String reason() {
    return reason;
  }

  /** What {@code gram_capabilities} reports, and what a recall that falls back names as the reason. */
  IndexStatus.Semantic status() {
    String r = reason;
    return ready() && r == null
        ? new IndexStatus.Semantic(IndexStatus.Semantic.AVAILABLE, null)
        : new IndexStatus.Semantic(IndexStatus.Semantic.UNAVAILABLE, r == null ? LOADING_REASON : r);
  }
}
