package dev.gram.cluster;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The revisions on their way from this node to one other node, sent in batches: a revision
 * handed over while no batch is in flight leaves at once, alone; one handed over while a batch is
 * in flight waits for that batch's answer and leaves with every other revision that arrived
 * meanwhile, in the order they were handed over.
 *
 * <p>Why: every message between two nodes costs both of them a frame, a dispatch and a reply
 * whatever it carries, and a cluster under load commits many revisions per round trip (each
 * owner's group commit ends a dozen of them at once). One message per revision made the messages,
 * not the revisions, the largest part of a commit's cost on three nodes. An idle cluster sends as
 * before (nothing waits); a busy one waits at most one round trip more, and only for as long as it
 * is busy. The follower applies a batch's revisions in order, so a document's revisions still
 * arrive in the order its owner committed them.
 */
final class ReplicationOutbox {
  /** A batch carries at most this many revisions, or about this many characters of them. */
  static final int MAX_REVISIONS = 256;

  static final int MAX_CHARS = 1 << 20;

  /** One revision to send, and who waits for the other node's answer. */
  record Item(String path, String revision, Promise<JsonObject> answer) {}

  private final Vertx vertx;
  private final String address;
  private final DeliveryOptions options;
  private List<Item> waiting = new ArrayList<>();
  private boolean inFlight;

  ReplicationOutbox(Vertx vertx, String address, DeliveryOptions options) {
    this.vertx = vertx;
    this.address = address;
    this.options = options;
  }

  /**
   * Hands a revision over; completes with the other node's answer for it ({@code {}} when taken,
   * or a {@code failure} object), or fails when the batch that carried it had no answer.
   */
  Future<JsonObject> send(String path, String revisionText) {
    Promise<JsonObject> p = Promise.promise();
    List<Item> now;
    synchronized (this) {
      waiting.add(new Item(path, revisionText, p));
      if (inFlight) {
        return p.future();
      }
      now = take();
    }
    dispatch(now);
    return p.future();
  }

  /** The next batch, and marks one in flight; call holding the lock with something waiting. */
  private List<Item> take() {
    List<Item> batch;
    if (waiting.size() <= MAX_REVISIONS && chars(waiting) <= MAX_CHARS) {
      batch = waiting;
      waiting = new ArrayList<>();
    } else {
      int n = 1;
      long size = waiting.get(0).revision().length();
      while (n < waiting.size() && n < MAX_REVISIONS && size + waiting.get(n).revision().length() <= MAX_CHARS) {
        size += waiting.get(n).revision().length();
        n++;
      }
      batch = new ArrayList<>(waiting.subList(0, n));
      waiting = new ArrayList<>(waiting.subList(n, waiting.size()));
    }
    inFlight = true;
    return batch;
  }

  private static long chars(List<Item> items) {
    long size = 0;
    for (Item i : items) {
      size += i.revision().length();
    }
    return size;
  }

  private void dispatch(List<Item> batch) {
    JsonArray revisions = new JsonArray(new ArrayList<>(batch.size() * 2));
    for (Item i : batch) {
      revisions.add(i.path()).add(i.revision());
    }
    vertx.eventBus().<JsonObject>request(address, new JsonObject().put("revisions", revisions), options)
        .onComplete(ar -> {
          answer(batch, ar.succeeded() ? ar.result() : null, ar.cause());
          List<Item> next = null;
          synchronized (this) {
            inFlight = false;
            if (!waiting.isEmpty()) {
              next = take();
            }
          }
          if (next != null) {
            dispatch(next);
          }
        });
  }

  /** Each revision's own answer: the follower lists the ones it could not take by position. */
  private static void answer(List<Item> batch, Message<JsonObject> reply, Throwable failure) {
    if (reply == null) {
      for (Item i : batch) {
        i.answer().fail(failure);
      }
      return;
    }
    JsonObject refused = reply.body().getJsonObject("refused", new JsonObject());
    for (int k = 0; k < batch.size(); k++) {
      JsonObject why = refused.getJsonObject(Integer.toString(k));
      batch.get(k).answer().complete(why == null ? new JsonObject() : why);
    }
  }
}
