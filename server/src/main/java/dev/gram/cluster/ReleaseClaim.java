package dev.gram.cluster;

import com.hazelcast.map.EntryProcessor;
import java.util.Map;

/**
 * Removes a request_id claim, run by Hazelcast on the member that owns the id's partition and on
 * its backup: one call carries a batch of settled ids ({@link RequestIdClaims#settled}).
 */
record ReleaseClaim() implements EntryProcessor<String, String, Boolean> {
  private static final long serialVersionUID = 1L;

  @Override
  public Boolean process(Map.Entry<String, String> entry) {
    boolean held = entry.getValue() != null;
    entry.setValue(null);
    return held;
  }
}
