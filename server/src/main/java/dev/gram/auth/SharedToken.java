package dev.gram.auth;

import dev.gram.access.Identity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The one {@code --token}: whoever presents it is {@link Identity#token()}, with every approval and
 * no name of its own. Compared in constant time, so the comparison leaks nothing about it.
 */
final class SharedToken {
  private final byte[] token;

  SharedToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  /** The identity, or null when {@code credential} is not the token. */
  Identity match(String credential) {
    return MessageDigest.isEqual(credential.getBytes(StandardCharsets.UTF_8), token) ? Identity.token() : null;
  }
}
