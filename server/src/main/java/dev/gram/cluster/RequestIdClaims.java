package dev.gram.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.gram.store.RequestClaims;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * request_id claims every node sees, in a Hazelcast map (request_id → the path of the write that
 * claimed it), made by the owner's idempotency when it reserves an id: the first write to claim an
 * id holds it for an hour (every node's own index knows a committed id well before, from the
 * replicated revision); a claim is released when its write did not commit.
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

  private final IMap<String, String> claims;
  private final StepTimes times;

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
}
