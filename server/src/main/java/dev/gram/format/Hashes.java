package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lowercase hex. */
public final class Hashes {
  private Hashes() {}

  /**
   * Never updated, only cloned. Why: {@code MessageDigest.getInstance} looks the algorithm up in
   * the providers on every call, which took a third of a recall's cursor digest (JFR); a clone of
   * a fresh digest is a copy of its few fields.
   */
  private static final MessageDigest PROTOTYPE = newDigest();

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** A fresh SHA-256 digest, for this package's callers that feed it in parts. */
  static MessageDigest digest() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return newDigest();
    }
  }

  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }

  /** SHA-256 of {@code head} followed by the first {@code length} bytes of {@code body}, without joining them. */
  static String sha256(byte[] head, byte[] body, int length) {
    MessageDigest md = digest();
    md.update(head);
    md.update(body, 0, length);
    return HexFormat.of().formatHex(md.digest());
  }

  /** The 16-character form shown to agents. */
  public static String shortHash(String fullHex) {
    return fullHex.substring(0, 16);
  }
}
