package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2024-11-05 HTTP+SSE transport: a GET opens an event stream whose first event, {@code
 * endpoint}, names where to POST messages; answers come back as {@code message} events on the
 * stream, matched to requests by id.
 */
final class SseWire implements Wire {
  private static final Logger LOG = LoggerFactory.getLogger(SseWire.class);

  private final URI sseUrl;
  private final Duration timeout;
  private final Map<String, String> extraHeaders;
  private final HttpClient http;
  private final PendingAnswers pending;
  private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
  private volatile InputStream stream;

  SseWire(URI sseUrl, Duration timeout, Map<String, String> extraHeaders) throws IOException {
    this.sseUrl = sseUrl;
    this.timeout = timeout;
    this.pending = new PendingAnswers(timeout, " on the event stream");
    this.extraHeaders = Map.copyOf(extraHeaders);
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    open();
  }

  private void open() throws IOException {
    HttpRequest.Builder b = HttpRequest.newBuilder(sseUrl).header("Accept", "text/event-stream").GET();
    extraHeaders.forEach(b::header);
    HttpResponse<InputStream> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    if (r.statusCode() != 200) {
      String text = new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
      throw new IOException("GET " + sseUrl + " answered HTTP " + r.statusCode() + ": " + text);
    }
    stream = r.body();
    Thread reader = new Thread(this::read, "conformance-sse-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      endpoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("no endpoint event within " + timeout.toSeconds() + " s of opening " + sseUrl);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  private void read() {
    try (SseReader events = new SseReader(stream)) {
      SseReader.Event e;
      while ((e = events.next()) != null) {
        if (e.name().equals("endpoint")) {
          endpoint.complete(sseUrl.resolve(e.data().trim()));
        } else if (e.name().equals("message")) {
          deliver(e.data());
        }
      }
    } catch (IOException e) {
      LOG.debug("reading the event stream: {}", e.getMessage());
    }
    String ended = "the server ended the event stream";
    endpoint.completeExceptionally(new IOException(ended + " before its endpoint event"));
    pending.end(ended);
  }

  private void deliver(String data) {
    JsonNode msg;
    try {
      msg = Json.parse(data);
    } catch (IOException e) {
      LOG.warn("a message event that is not JSON: {}", data);
      return;
    }
    if (msg.has("method")) {
      return; // notifications and server requests: nothing a case checks
    }
    pending.deliver(msg);
  }

  private void post(ObjectNode message) throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint.join())
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.compact(message), StandardCharsets.UTF_8));
    extraHeaders.forEach(b::header);
    HttpResponse<String> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    if (r.statusCode() / 100 != 2) {
      throw new IOException("POST " + message.path("method").asText() + " answered HTTP " + r.statusCode() + ": " + r.body());
    }
  }

  @Override
  public JsonNode request(ObjectNode message) throws IOException {
    return pending.request(message, () -> post(message));
  }

  @Override
  public void notify(ObjectNode message) throws IOException {
    post(message);
  }

  /** The Java SDK's SSE client offers only 2024-11-05 here, and so do we. */
  @Override
  public String legacyVersion() {
    return Era.OLDEST_LEGACY;
  }

  @Override
  public String describe() {
    return "HTTP+SSE " + sseUrl;
  }

  @Override
  public void close() {
    InputStream s = stream;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // the server may have ended the stream already
      }
    }
  }
}
