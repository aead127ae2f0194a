package dev.gram.conformance;

/**
 * The two protocol eras a runner can speak: the {@code initialize} handshake (2024-11-05 to
 * 2025-11-25) or the stateless 2026-07-28 revision, where every request carries its version and
 * client capabilities in {@code _meta}.
 */
enum Era {
  LEGACY("legacy"),
  MODERN("2026-07-28");

  static final String NEWEST_LEGACY = "2025-11-25";
  static final String OLDEST_LEGACY = "2024-11-05";
  static final String MODERN_VERSION = "2026-07-28";

  private final String flag;

  Era(String flag) {
    this.flag = flag;
  }

  /** The value of {@code --era} that selects this era. */
  String flag() {
    return flag;
  }

  static Era of(String flag) {
    for (Era e : values()) {
      if (e.flag.equals(flag)) {
        return e;
      }
    }
    throw new IllegalArgumentException("--era is legacy or 2026-07-28, not " + flag);
  }
}
