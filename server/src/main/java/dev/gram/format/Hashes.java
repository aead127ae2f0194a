package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lowercase hex. */
public final class Hashes {
  private Hashes() {}

  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** SHA-256 of {@code head} followed by the first {@code length} bytes of {@code body}, without joining them. */
  static String sha256(byte[] head, byte[] body, int length) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(head);
      md.update(body, 0, length);
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The 16-character form shown to agents. */
  public static String shortHash(String fullHex) {
    return fullHex.substring(0, 16);
  }
}
