package dev.gram.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When an idle server's heap is worth a collection. */
class IdleHeapTrimTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void aHeapGrownFarPastWhatItKeepsIsTrimmed() {
    // After indexing and embedding 10,000 records: 692 MiB committed, 64 MiB kept.
    assertThat(IdleHeapTrim.oversized(692 * MIB, 64 * MIB)).isTrue();
  }

  @Test
  void aHeapSizedToWhatItKeepsIsLeftAlone() {
    // After the trim: 72 MiB committed; or a large vault whose live heap is most of it.
    assertThat(IdleHeapTrim.oversized(72 * MIB, 47 * MIB)).isFalse();
    assertThat(IdleHeapTrim.oversized(240 * MIB, 64 * MIB)).isFalse();
    assertThat(IdleHeapTrim.oversized(2_000 * MIB, 1_000 * MIB)).isFalse();
    assertThat(IdleHeapTrim.oversized(3_000 * MIB, 1_000 * MIB)).isTrue();
  }
}
