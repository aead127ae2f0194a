package dev.gram.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock a test moves by hand: revisions get the times the test gives them, so a test that needs
 * distinct recorded times advances it instead of sleeping.
 */
public final class ManualClock extends Clock {
  private volatile Instant now;

  public ManualClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward. */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
