package dev.gram.protocol;

import dev.gram.access.ApprovalException;
import dev.gram.access.Identity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the caller's approvals refused, counted in {@link ProtocolMetrics#refused} and logged with
 * who asked, what and why: never the path (which may name what the caller was refused), never a
 * credential.
 */
final class Refusals {
  private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

  private final ProtocolMetrics metrics;

  Refusals(ProtocolMetrics metrics) {
    this.metrics = metrics;
  }

  /** Notes {@code failure} when it is a refusal of the gate; anything else is left alone. */
  void note(String what, Identity caller, Throwable failure) {
    if (failure instanceof ApprovalException refused) {
      metrics.refused(refused.reason());
      LOG.info("refused {} for agent {}: {}", what, caller, refused.reason());
    }
  }
}
