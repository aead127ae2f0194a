package dev.gram.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.gram.store.RequestClaims;
import java.time.Duration;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * request_id claims every node sees, in a Hazelcast map (request_id → the path of the write that
 * claimed it), made by the owner's idempotency when it reserves an id. A claim is released when
 * its write did not commit, and let go once every node took the committed revision (every node's
 * own index then knows the id), in batches of {@link #BATCH}: one Hazelcast call for a batch, not
 * one per write. A claim whose revision some node did not take lives an hour.
 *
 * <p>Why let go: under a steady stream of writes, claims kept for an hour were the largest part of
 * Hazelcast's memory (about 220 B per claim on each of two members; 900 writes a second hold some
 * 3 million of them), and the collector walked them all.
 *
 * <p>Its key is the request_id, not the path: a claim exists to stop one id from committing on
 * two documents that two owners write at once, so every claim of an id must meet on one
 * partition, which is the id's and in general not the document's. That is why it cannot ride in
 * the head fence's call on the document's partition ({@link HeadFence}).
 */
final class RequestIdClaims implements RequestClaims {
  static final String MAP = "gram.request-ids";
  /** How long a claim lives: every node's own index knows the id well before. */
  private static final Duration TTL = Duration.ofHours(1);

  /** How many settled claims are let go in one call. */
  static final int BATCH = 128;

  private final IMap<String, String> claims;
  private final StepTimes times;
  private final Queue<String> settled = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();

  RequestIdClaims(HazelcastInstance hz, StepTimes times) {
    this.claims = hz.getMap(MAP);
    this.times = times;
  }

  @Override
  public String claim(String requestId, String path) {
    long t0 = System.nanoTime();
    try {
      return claims.putIfAbsent(requestId, path, TTL.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      times.since(t0);
    }
  }

  @Override
  public void release(String requestId) {
    claims.removeAsync(requestId);
  }

  @Override
  public void settled(String requestId) {
    settled.add(requestId);
    if (waiting.incrementAndGet() < BATCH) {
      return;
    }
    Set<String> batch = new HashSet<>();
    String id;
    while (batch.size() < BATCH && (id = settled.poll()) != null) {
      batch.add(id);
      waiting.decrementAndGet();
    }
    if (!batch.isEmpty()) {
      // Not waited for: a batch that fails leaves its claims to their hour.
      claims.submitToKeys(batch, new ReleaseClaim());
    }
  }

  /** Claims whose partition this member owns (for /healthz; read locally, no call). */
  long ownedHere() {
    return claims.getLocalMapStats().getOwnedEntryCount();
  }
}
