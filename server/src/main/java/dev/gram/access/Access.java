package dev.gram.access;

import java.util.Locale;

/** What an approval lets an agent do under a folder: nothing, read, or read and write. */
public enum Access {
  NONE,
  READ,
  WRITE;

  public boolean reads() {
    return this != NONE;
  }

  public boolean writes() {
    return this == WRITE;
  }

  /** The word agents files, flags and answers use: {@code read} or {@code write} ({@code none}). */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code read} or {@code write}; anything else is null. */
  public static Access ofWord(String word) {
    if ("read".equals(word)) {
      return READ;
    }
    if ("write".equals(word)) {
      return WRITE;
    }
    return null;
  }

  /** The lesser of two: what both allow. */
  public Access and(Access other) {
    return other.ordinal() < ordinal() ? other : this;
  }

  /** The greater of two: write includes read. */
  public Access or(Access other) {
    return other.ordinal() > ordinal() ? other : this;
  }
}
