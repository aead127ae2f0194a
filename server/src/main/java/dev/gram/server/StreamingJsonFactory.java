package dev.gram.server;

import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.spi.JsonFactory;
import io.vertx.core.spi.json.JsonCodec;

/**
 * Makes Vert.x encode and decode JSON with Jackson's streaming parser and generator only.
 *
 * <p>Vert.x picks its databind codec whenever jackson-databind is on the class path (here it comes
 * with the embedding model's library), and the first JSON a process touches then builds an
 * {@code ObjectMapper}: about 500 classes and a quarter of a second before the first answer. The
 * server only ever puts JSON values (objects, arrays, strings, numbers, booleans) into
 * {@code JsonObject}s and never maps Java objects, so the streaming codec, which handles exactly
 * those, is all it needs. Registered in {@code META-INF/services/io.vertx.core.spi.JsonFactory};
 * Vert.x uses the factory with the lowest {@link #order()}.
 */
public final class StreamingJsonFactory implements JsonFactory {
  private static final JsonCodec CODEC = new JacksonCodec();

  @Override
  public int order() {
    return 0;
  }

  @Override
  public JsonCodec codec() {
    return CODEC;
  }
}
