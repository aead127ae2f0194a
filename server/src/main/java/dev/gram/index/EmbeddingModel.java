package dev.gram.index;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process sentence embedding model: all-MiniLM-L6-v2, 8-bit quantized, 384 dimensions,
 * read from the jar and run by ONNX Runtime on the CPU. Nothing is fetched from the network.
 *
 * <p>Loading takes a second or two and its native libraries may fail to load on some machines,
 * so it is loaded once per process, in the background, and whoever needs it asks {@link
 * #shared()} for a future. Inference runs on one thread per call (ONNX Runtime's own thread pools
 * are set to one thread) so that embedding never takes more than the one core its caller runs on.
 */
public final class EmbeddingModel {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddingModel.class);

  /** Recorded in the index: vectors of another model are never mixed with these. */
  public static final String NAME = "all-minilm-l6-v2-q";

  private static final String MODEL_RESOURCE = "/all-minilm-l6-v2-q.onnx";
  private static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-q-tokenizer.json";

  /** Turns texts into unit vectors. Thread-safe. */
  public interface Encoder {
    float[][] embed(List<String> texts);

    default float[] embed(String text) {
      return embed(List.of(text))[0];
    }
  }

  private static volatile CompletableFuture<Encoder> shared;

  private EmbeddingModel() {}

  /** The process-wide model, loading it on a background thread on first call. */
  public static CompletableFuture<Encoder> shared() {
    CompletableFuture<Encoder> f = shared;
    if (f == null) {
      synchronized (EmbeddingModel.class) {
        f = shared;
        if (f == null) {
          CompletableFuture<Encoder> created = new CompletableFuture<>();
          Thread t =
              new Thread(
                  () -> {
                    try {
                      created.complete(load());
                    } catch (Throwable e) {
                      created.completeExceptionally(e);
                    }
                  },
                  "gram-embedding-load");
          t.setDaemon(true);
          t.start();
          shared = f = created;
        }
      }
    }
    return f;
  }

  /**
   * Waits, at most {@code timeout}, for a load already under way to end. The process must not
   * exit while ONNX Runtime is creating its session: its native code then crashes the JVM on the
   * way out (SIGSEGV, exit status 134) instead of letting it end cleanly.
   */
  public static void awaitLoadIfStarted(java.time.Duration timeout) {
    CompletableFuture<Encoder> f = shared;
    if (f == null || f.isDone()) {
      return;
    }
    try {
      f.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // Failed or still loading: nothing more to wait for here.
    }
  }

  /** Loads the model and checks it answers: one sentence in, one finite unit vector out. */
  static Encoder load() throws Exception {
    long t0 = System.nanoTime();
    byte[] model;
    try (InputStream in = EmbeddingModel.class.getResourceAsStream(MODEL_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing " + MODEL_RESOURCE.substring(1) + " in the jar");
      }
      model = in.readAllBytes();
    }
    InputStream tokenizer = EmbeddingModel.class.getResourceAsStream(TOKENIZER_RESOURCE);
    if (tokenizer == null) {
      throw new IllegalStateException("missing " + TOKENIZER_RESOURCE.substring(1) + " in the jar");
    }
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    options.setIntraOpNumThreads(1);
    options.setInterOpNumThreads(1);
    OrtSession session = env.createSession(model, options);
    OnnxBertBiEncoder bert;
    try (tokenizer) {
      bert = new OnnxBertBiEncoder(env, session, tokenizer, PoolingMode.MEAN);
    }
    Model m = new Model(bert);
    Encoder encoder =
        texts -> {
          List<TextSegment> segments = new ArrayList<>(texts.size());
          for (String t : texts) {
            segments.add(TextSegment.from(t == null || t.isBlank() ? "-" : t));
          }
          List<Embedding> out = m.embedAll(segments).content();
          float[][] vectors = new float[out.size()][];
          for (int i = 0; i < vectors.length; i++) {
            vectors[i] = normalize(out.get(i).vector());
          }
          return vectors;
        };
    float[] probe = encoder.embed("gram recall probe sentence");
    if (probe.length != Schema.DIMENSION) {
      throw new IllegalStateException("the model gives " + probe.length + " dimensions, not " + Schema.DIMENSION);
    }
    for (float v : probe) {
      if (!Float.isFinite(v)) {
        throw new IllegalStateException("the model gives a vector that is not finite");
      }
    }
    LOG.info("embedding model {} loaded in {} ms", NAME, (System.nanoTime() - t0) / 1_000_000);
    return encoder;
  }

  static float[] normalize(float[] v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    n = Math.sqrt(n);
    if (n == 0 || Math.abs(n - 1) < 1e-6) {
      return v;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / n);
    }
    return out;
  }

  /** langchain4j's in-process model around our session; embeds on the calling thread. */
  private static final class Model extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder bert;

    Model(OnnxBertBiEncoder bert) {
      super(Runnable::run);
      this.bert = bert;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return bert;
    }

    @Override
    protected Integer knownDimension() {
      return Schema.DIMENSION;
    }
  }
}
