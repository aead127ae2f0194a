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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process sentence embedding model, read from the jar and run by ONNX Runtime on the CPU.
 * Nothing is fetched from the network. Which model is {@link #SPEC}: the one kept is chosen by the
 * measurements of {@code docs/recall.md}; the others it was compared with can be chosen for a
 * measurement with {@code -Dgram.embedding.model=<name>} when their jar is on the class path.
 *
 * <p>Loading takes a second or two and its native libraries may fail to load on some machines,
 * so it is loaded once per process, in the background, and whoever needs it asks {@link
 * #shared()} for a future. Inference runs on one thread per call (ONNX Runtime's own thread pools
 * are set to one thread) so that embedding never takes more than the one core its caller runs on.
 */
public final class EmbeddingModel {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddingModel.class);

  /**
   * A model and how it is asked: its resources in the jar, how token vectors become one, and the
   * prefixes it was trained with for queries and for the passages they search.
   */
  record Spec(String name, String resource, PoolingMode pooling, String queryPrefix, String passagePrefix) {}

  static final Spec MINILM = new Spec("all-minilm-l6-v2-q", "all-minilm-l6-v2-q", PoolingMode.MEAN, "", "");
  static final Spec BGE_SMALL = new Spec("bge-small-en-v1.5-q", "bge-small-en-v1.5-q", PoolingMode.CLS,
      "Represent this sentence for searching relevant passages: ", "");
  static final Spec E5_SMALL = new Spec("e5-small-v2-q", "e5-small-v2-q", PoolingMode.MEAN, "query: ", "passage: ");

  /** The model of this process. */
  static final Spec SPEC = chosen(System.getProperty("gram.embedding.model"));

  /** Recorded in the index: vectors of another model are never mixed with these. */
  public static final String NAME = SPEC.name();

  static Spec chosen(String name) {
    for (Spec s : new Spec[] {MINILM, BGE_SMALL, E5_SMALL}) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return BGE_SMALL;
  }

  /** Turns texts into unit vectors. Thread-safe. */
  public interface Encoder {
    /** The vectors of passages: the texts a query searches. */
    float[][] embed(List<String> texts);

    /** The vector of a query, which a model may read differently from a passage. */
    default float[] embedQuery(String query) {
      return embed(List.of(query))[0];
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
    return load(SPEC);
  }

  static Encoder load(Spec spec) throws Exception {
    long t0 = System.nanoTime();
    String modelResource = "/" + spec.resource() + ".onnx";
    String tokenizerResource = "/" + spec.resource() + "-tokenizer.json";
    byte[] model;
    try (InputStream in = EmbeddingModel.class.getResourceAsStream(modelResource)) {
      if (in == null) {
        throw new IllegalStateException("missing " + modelResource.substring(1) + " in the jar");
      }
      model = in.readAllBytes();
    }
    InputStream tokenizer = EmbeddingModel.class.getResourceAsStream(tokenizerResource);
    if (tokenizer == null) {
      throw new IllegalStateException("missing " + tokenizerResource.substring(1) + " in the jar");
    }
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    options.setIntraOpNumThreads(1);
    options.setInterOpNumThreads(1);
    OrtSession session = env.createSession(model, options);
    OnnxBertBiEncoder bert;
    try (tokenizer) {
      bert = new OnnxBertBiEncoder(env, session, tokenizer, spec.pooling());
    }
    Encoder encoder = new Loaded(new Model(bert), spec);
    float[] probe = encoder.embedQuery("gram recall probe sentence");
    if (probe.length != Schema.DIMENSION) {
      throw new IllegalStateException("the model gives " + probe.length + " dimensions, not " + Schema.DIMENSION);
    }
    for (float v : probe) {
      if (!Float.isFinite(v)) {
        throw new IllegalStateException("the model gives a vector that is not finite");
      }
    }
    LOG.info("embedding model {} loaded in {} ms", spec.name(), (System.nanoTime() - t0) / 1_000_000);
    return encoder;
  }

  /**
   * A loaded model with its prefixes. The vectors of the last queries are kept: a client paging
   * with a cursor, or asking the same question in another mode, asks for the same vector again,
   * and a query's embedding is most of a semantic recall's time (4-6 ms of a hybrid recall's 6 on
   * this project's 2-core machine). 4,096 vectors of 384 floats are about 6.5 MB: enough for a
   * team's questions of a day, or a benchmark's pass of questions in one mode before the next.
   */
  private static final class Loaded implements Encoder {
    private static final int QUERY_CACHE = 4_096;
    private final Model model;
    private final Spec spec;
    private final Map<String, float[]> queries =
        java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(QUERY_CACHE * 2, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > QUERY_CACHE;
          }
        });

    Loaded(Model model, Spec spec) {
      this.model = model;
      this.spec = spec;
    }

    @Override
    public float[][] embed(List<String> texts) {
      List<TextSegment> segments = new ArrayList<>(texts.size());
      for (String t : texts) {
        segments.add(TextSegment.from(spec.passagePrefix() + (t == null || t.isBlank() ? "-" : t)));
      }
      return vectors(segments);
    }

    @Override
    public float[] embedQuery(String query) {
      float[] v = queries.get(query);
      if (v == null) {
        String q = query == null || query.isBlank() ? "-" : query;
        v = vectors(List.of(TextSegment.from(spec.queryPrefix() + q)))[0];
        queries.put(query, v);
      }
      return v;
    }

    private float[][] vectors(List<TextSegment> segments) {
      List<Embedding> out = model.embedAll(segments).content();
      float[][] vectors = new float[out.size()][];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = normalize(out.get(i).vector());
      }
      return vectors;
    }
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
