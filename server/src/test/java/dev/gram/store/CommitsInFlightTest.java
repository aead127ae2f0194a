package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** What readers may treat as settled while commits are between taking their time and being published. */
class CommitsInFlightTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00.123456Z");
  private final CommitsInFlight inFlight = new CommitsInFlight(Clock.fixed(now, ZoneOffset.UTC));

  @Test
  void visibilityStopsShortOfCommitsStillInFlight() {
    assertThat(inFlight.visibleThrough()).isEqualTo(Instant.parse("2026-12-04T12:00:00.122Z"));
    Instant started = now.minusSeconds(5);
    long id = inFlight.started(started);
    // A revision recorded at or after 'started' may still appear: the limit stays before it.
    assertThat(inFlight.visibleThrough()).isEqualTo(started.minusMillis(1));
    long later = inFlight.started(now.minusSeconds(1));
    inFlight.ended(id);
    assertThat(inFlight.visibleThrough()).isEqualTo(now.minusSeconds(1).minusMillis(1));
    inFlight.ended(later);
    assertThat(inFlight.visibleThrough()).isEqualTo(Instant.parse("2026-12-04T12:00:00.122Z"));
  }
}
