package dev.gram.protocol;

/**
 * The two protocol eras a request can belong to. It decides the shape of results, not what they
 * mean: the same tool answer is served to both.
 */
enum Era {
  /**
   * 2024-11-05 to 2025-11-25: the channel's {@code initialize} handshake settled the version;
   * results keep their plain shape.
   */
  LEGACY,
  /**
   * 2026-07-28: the request carries its version in {@code _meta}; every result has {@code
   * resultType} and names the server in its own {@code _meta}.
   */
  MODERN
}
