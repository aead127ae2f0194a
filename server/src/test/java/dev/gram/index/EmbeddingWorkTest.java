package dev.gram.index;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.async.Background;
import dev.gram.async.Foreground;
import dev.gram.edit.PatchOps;
import dev.gram.store.PathResolver;
import dev.gram.store.Vault;
import dev.gram.testing.StoreWrites;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How much embedding work a write costs, seen from the model's side (a model that records what
 * it is asked): a document written without pause is embedded a few times at its latest state,
 * not once per write; only units whose text changed are embedded again; and a tool call in flight
 * holds embedding back, but never for good.
 */
class EmbeddingWorkTest {
  @TempDir Path dir;

  private final List<String> embedded = Collections.synchronizedList(new ArrayList<>());
  /** Milliseconds (System.nanoTime) of each call to the model. */
  private final List<Long> calls = Collections.synchronizedList(new ArrayList<>());
  private final EmbeddingModel.Encoder model = texts -> {
    calls.add(System.nanoTime() / 1_000_000);
    embedded.addAll(texts);
    float[][] out = new float[texts.size()][Schema.DIMENSION];
    for (int i = 0; i < out.length; i++) {
      out[i][Math.floorMod(texts.get(i).hashCode(), Schema.DIMENSION)] = 1;
    }
    return out;
  };
  private Vault vault;
  private RecallIndex index;

  private StoreWrites open(Foreground foreground) {
    vault = new Vault(new PathResolver(dir.resolve("vault"), List.of()), new PatchOps(), Clock.systemUTC(), 2);
    index = RecallIndex.open(vault, dir.resolve("index"), () -> CompletableFuture.completedFuture(model),
        IndexTuning.DEFAULTS, new Background(1, foreground));
    Fixtures.await(vault.start());
    return new StoreWrites(vault);
  }

  @AfterEach
  void close() {
    if (index != null) {
      index.close();
    }
    if (vault != null) {
      Fixtures.await(vault.close());
    }
  }

  private static JsonObject content(int records) {
    JsonArray rs = new JsonArray();
    for (int i = 0; i < records; i++) {
      rs.add(record("task", "r" + i, "Task number " + i, "d", "first description of task " + i));
    }
    return new JsonObject().put("text", "# Notes\n\nA body section about the weekly numbat count.").put("records", rs);
  }

  @Test
  void aDocumentWrittenWithoutPauseIsEmbeddedAFewTimesAtItsLatestState() throws Exception {
    StoreWrites w = open(Foreground.none());
    w.create("p/hot.gram", "Hot", content(20));
    assertThat(index.awaitIdle(30_000, true)).isTrue();
    // Each unit once: 20 records and the body's section.
    assertThat(embedded).hasSize(21).doesNotHaveDuplicates();
    embedded.clear();

    int writes = 300;
    for (int i = 0; i < writes; i++) {
      w.patch("p/hot.gram", ops(set("r0", "d", "description " + i + " of the hot task")));
    }
    assertThat(index.awaitIdle(30_000, true)).isTrue();
    List<String> texts = List.copyOf(embedded);
    // Only the record that changed, and only a few of its states: the latest among them.
    assertThat(texts).isNotEmpty().allMatch(t -> t.contains(" of the hot task"));
    assertThat(texts.get(texts.size() - 1)).contains("description " + (writes - 1) + " of the hot task");
    assertThat(texts.size()).isLessThan(writes / 10);
    assertThat(index.unembeddedChunks()).isZero();
  }

  @Test
  void aWriteToOneRecordOfALargeDocumentEmbedsThatRecordAlone() throws Exception {
    StoreWrites w = open(Foreground.none());
    w.create("p/large.gram", "Large", content(200));
    assertThat(index.awaitIdle(30_000, true)).isTrue();
    embedded.clear();

    w.patch("p/large.gram", ops(set("r150", "d", "a new description of task 150")));
    w.patch("p/large.gram", ops(StoreWrites.add(record("task", "r900", "A task added later"))));
    assertThat(index.awaitIdle(30_000, true)).isTrue();
    assertThat(embedded).hasSize(2);
    assertThat(embedded).anyMatch(t -> t.contains("a new description of task 150"))
        .anyMatch(t -> t.contains("A task added later"));
    assertThat(index.unembeddedChunks()).isZero();
  }

  @Test
  void aCallInFlightHoldsEmbeddingBackForABoundedTime() throws Exception {
    Foreground agents = new Foreground();
    StoreWrites w = open(agents);
    agents.started();
    long queued = System.nanoTime() / 1_000_000;
    w.create("p/doc.gram", "Doc", content(3));
    // The call never ends: embedding waits for it at most yieldMaxMs before each batch, then
    // goes on; the vectors still arrive.
    assertThat(index.awaitIdle(30_000, true)).isTrue();
    assertThat(calls).isNotEmpty();
    assertThat(calls.get(0) - queued).isGreaterThanOrEqualTo(IndexTuning.DEFAULTS.yieldMaxMs());
    agents.ended();
  }
}
