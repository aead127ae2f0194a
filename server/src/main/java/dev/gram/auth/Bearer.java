package dev.gram.auth;

import dev.gram.access.Refusal;

/** The credential of an {@code Authorization: Bearer <credential>} header (RFC 6750 §2.1). */
final class Bearer {
  private Bearer() {}

  /** The credential, or null when the header is missing, of another scheme, or empty. */
  static String credential(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String c = authorization.substring(7).strip();
    return c.isEmpty() ? null : c;
  }

  /** True when the credential has the shape of a JWT (three dot-separated parts, or two and a dot). */
  static boolean looksLikeJwt(String credential) {
    int first = credential.indexOf('.');
    return first > 0 && credential.indexOf('.', first + 1) > first;
  }

  static Refusal missing(String challenge) {
    return new Refusal(401, "missing_token", challenge, "a bearer token is required");
  }

  static Refusal invalid(String challenge, String reason, String message) {
    return new Refusal(401, reason, challenge, message);
  }
}
