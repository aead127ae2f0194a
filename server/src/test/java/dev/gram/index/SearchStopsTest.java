package dev.gram.index;

import static dev.gram.index.Fixtures.add;
import static dev.gram.index.Fixtures.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.StoreWrites;
import io.vertx.core.json.JsonArray;
import dev.gram.async.Background;
import dev.gram.async.Foreground;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recall's caller stops waiting while Lucene scores: the search asks the caller's stop as it
 * goes and ends with the caller's error, instead of scoring to the end.
 */
class SearchStopsTest {
  @TempDir Path dir;

  /**
   * The caller's deadline passes during the search itself: every check before it passes, and
   * only Lucene's own asking can see the moment. Without it the recall answers in full.
   */
  @Test
  void aSearchWhoseCallerStoppedEndsWithTheCallersError() throws Exception {
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex index = RecallIndex.open(vault, dir.resolve("index"), false);
    try {
      Fixtures.await(vault.start());
      feedTheQuolls(vault);
      assertThat(Fixtures.await(index.recall(keyword("quoll", RecallRequest.Stop.NEVER))).hits()).isNotEmpty();

      AtomicInteger asked = new AtomicInteger();
      RecallRequest.Stop duringTheSearch = stoppedOnceAsked(asked);
      // Another query than the first, so that no kept ranking answers it.
      Throwable e = catchThrowable(() -> Fixtures.await(index.recall(keyword("feed quoll", duringTheSearch))));
      assertThat(asked.get()).isPositive();
      Throwable cause = e;
      while (cause != null && !(cause instanceof GramException)) {
        cause = cause.getCause();
      }
      assertThat(cause).isInstanceOf(GramException.class);
      assertThat(((GramException) cause).code()).isEqualTo(ErrorCode.E_TIMEOUT);
    } finally {
      index.close();
      Fixtures.await(vault.close());
    }
  }

  /**
   * The vector graph's walk ends early without saying so: a semantic recall stopped during it
   * ends with the caller's error, and the same question asked again by a caller who waits gets a
   * whole ranking, not the one cut short (fails if the cut ranking is kept).
   */
  @Test
  void aVectorSearchCutShortIsNotKeptForTheNextCaller() throws Exception {
    EmbeddingModel.Encoder model = texts -> {
      float[][] out = new float[texts.size()][Schema.DIMENSION];
      for (int i = 0; i < out.length; i++) {
        out[i][Math.floorMod(texts.get(i).hashCode(), 64)] = 1;
        out[i][64 + Math.floorMod(texts.get(i).length(), 64)] = 1;
      }
      return out;
    };
    Vault vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    RecallIndex index = RecallIndex.open(vault, dir.resolve("index"), () -> CompletableFuture.completedFuture(model),
        IndexTuning.DEFAULTS, new Background(1, Foreground.none()));
    try {
      Fixtures.await(vault.start());
      feedTheQuolls(vault);
      assertThat(index.awaitIdle(30_000, true)).isTrue();

      AtomicInteger asked = new AtomicInteger();
      RecallRequest.Stop duringTheSearch = stoppedOnceAsked(asked);
      Throwable e = catchThrowable(() -> Fixtures.await(index.recall(semantic("quoll to feed", duringTheSearch))));
      assertThat(asked.get()).isPositive();
      assertThat(e).isNotNull();
      assertThat(Fixtures.await(index.recall(semantic("quoll to feed", RecallRequest.Stop.NEVER))).hits()).hasSize(10);
    } finally {
      index.close();
      Fixtures.await(vault.close());
    }
  }

  /** One document of 200 tasks that all mention the quoll. */
  private static void feedTheQuolls(Vault vault) {
    StoreWrites w = new StoreWrites(vault);
    w.create("p/zoo.gram", "Zoo", "");
    JsonArray ops = new JsonArray();
    for (int i = 0; i < 200; i++) {
      ops.add(add(record("task", "t" + i, "Feed the quoll number " + i)));
    }
    w.patch("p/zoo.gram", ops);
  }

  /**
   * A caller whose deadline passes the moment Lucene first asks: every check before that passes,
   * and every check after throws E_TIMEOUT. {@code asked} counts Lucene's asking.
   */
  private static RecallRequest.Stop stoppedOnceAsked(AtomicInteger asked) {
    return new RecallRequest.Stop() {
      @Override
      public long leftMillis() {
        return 60_000;
      }

      @Override
      public void check() {
        if (asked.get() > 0) {
          throw new GramException(ErrorCode.E_TIMEOUT, "gram_recall did not finish within the deadline");
        }
      }

      @Override
      public boolean stopped() {
        asked.incrementAndGet();
        return true;
      }
    };
  }

  private static RecallRequest semantic(String q, RecallRequest.Stop stop) {
    return new RecallRequest(q, RecallRequest.Mode.SEMANTIC, RecallRequest.Filters.NONE, 10, 0, stop);
  }

  private static RecallRequest keyword(String q, RecallRequest.Stop stop) {
    return new RecallRequest(q, RecallRequest.Mode.KEYWORD, RecallRequest.Filters.NONE, 10, 0, stop);
  }
}
