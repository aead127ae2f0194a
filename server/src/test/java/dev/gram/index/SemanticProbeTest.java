package dev.gram.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the index says of semantic search while its model loads and when the model cannot load:
 * the status gram_capabilities reports, and the fallback recall answers with. (Turned off by flag:
 * RecallFiltersTest; working: RecallModesTest.)
 */
class SemanticProbeTest {
  @TempDir Path dir;

  private RecallIndex open(Vault vault, CompletableFuture<EmbeddingModel.Encoder> model) {
    RecallIndex ri = RecallIndex.open(vault, dir.resolve("index"), () -> model);
    Fixtures.await(vault.start());
    return ri;
  }

  private static RecallRequest semantic(String q) {
    return new RecallRequest(q, RecallRequest.Mode.SEMANTIC, RecallRequest.Filters.NONE, 5, 0);
  }

  @Test
  void aModelThatCannotLoadIsReportedWithItsReasonAndRecallFallsBack() {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex ri = open(vault, CompletableFuture.failedFuture(
        new UnsatisfiedLinkError("no onnxruntime in java.library.path")));
    try {
      // The model is asked for on a background thread of the index: "loading" until it answers.
      long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (ri.semantic().reason().startsWith("EMBEDDING_LOADING") && System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      IndexStatus.Semantic s = ri.semantic();
      assertThat(s.status()).isEqualTo("unavailable");
      assertThat(s.reason()).isEqualTo("EMBEDDING_UNAVAILABLE: UnsatisfiedLinkError: no onnxruntime in java.library.path");
      RecallResult r = Fixtures.await(ri.recall(semantic("anything")));
      assertThat(r.mode()).isEqualTo(RecallRequest.Mode.KEYWORD);
      assertThat(r.fallback()).startsWith("EMBEDDING_UNAVAILABLE: UnsatisfiedLinkError").endsWith("answered in keyword mode");
      assertThat(r.cosine()).isFalse();
    } finally {
      ri.close();
      Fixtures.await(vault.close());
    }
  }

  @Test
  void whileTheModelLoadsSemanticIsUnavailableAndSaysSo() {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    CompletableFuture<EmbeddingModel.Encoder> loading = new CompletableFuture<>();
    RecallIndex ri = open(vault, loading);
    try {
      assertThat(ri.semantic().status()).isEqualTo("unavailable");
      assertThat(ri.semantic().reason()).startsWith("EMBEDDING_LOADING");
      assertThat(Fixtures.await(ri.recall(semantic("anything"))).fallback()).startsWith("EMBEDDING_LOADING");
      // A model that answers makes it available (as soon as the index's background thread has
      // asked for it).
      loading.complete(texts -> {
        float[][] out = new float[texts.size()][Schema.DIMENSION];
        for (float[] v : out) {
          v[0] = 1;
        }
        return out;
      });
      long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (!ri.semantic().status().equals("available") && System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      assertThat(ri.semantic().status()).isEqualTo("available");
      assertThat(ri.semantic().reason()).isNull();
      RecallResult r = Fixtures.await(ri.recall(semantic("anything")));
      assertThat(r.mode()).isEqualTo(RecallRequest.Mode.SEMANTIC);
      assertThat(r.fallback()).isNull();
    } finally {
      ri.close();
      Fixtures.await(vault.close());
    }
  }
}
