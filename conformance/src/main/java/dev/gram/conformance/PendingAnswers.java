package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Requests sent on a wire whose answers arrive on a reader thread (stdio's stdout, the SSE event
 * stream), matched to their request by id.
 */
final class PendingAnswers {
  /** Sends the request once its answer is awaited. */
  interface Send {
    void send() throws IOException;
  }

  private final Map<String, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
  private final Duration timeout;
  /** Where answers come from, for the timeout message: "" or " on the event stream". */
  private final String where;
  private volatile String ended;

  PendingAnswers(Duration timeout, String where) {
    this.timeout = timeout;
    this.where = where;
  }

  /** Sends {@code message} with {@code send} and waits for the answer with its id. */
  JsonNode request(ObjectNode message, Send send) throws IOException {
    if (ended != null) {
      throw new IOException(ended);
    }
    String id = message.get("id").asText();
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    waiting.put(id, f);
    try {
      send.send();
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("no answer" + where + " within " + timeout.toSeconds() + " s");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    } finally {
      waiting.remove(id);
    }
  }

  /** Hands an answer to its request; false when no request of ours waits for it. */
  boolean deliver(JsonNode answer) {
    JsonNode id = answer.get("id");
    CompletableFuture<JsonNode> f = id == null ? null : waiting.remove(id.asText());
    if (f == null) {
      return false;
    }
    f.complete(answer);
    return true;
  }

  /** No more answers will come: every waiting request, and every later one, fails with {@code why}. */
  void end(String why) {
    ended = why;
    for (CompletableFuture<JsonNode> f : new ArrayList<>(waiting.values())) {
      f.completeExceptionally(new IOException(why));
    }
  }
}
