package dev.gram.access;

/**
 * One approval: a folder of the vault and what it allows under it. The folder is a vault path
 * without a trailing slash ({@code project-a}, {@code shared/notes}, {@code @mounts/team}), or
 * {@code ""} for everything, written {@code *}. It covers itself and every path below it, never a
 * sibling that merely starts with the same letters ({@code project-a} does not cover {@code
 * project-ab}).
 */
public record Approval(String folder, Access access) {

  public Approval {
    if (folder == null || access == null || access == Access.NONE) {
      throw new IllegalArgumentException("an approval needs a folder and read or write");
    }
  }

  /** Everything, read and write: what an unrestricted caller holds. */
  public static final Approval EVERYTHING = new Approval("", Access.WRITE);

  /**
   * Parses {@code FOLDER=read|write} (the {@code --approve} flag, {@code agents add --approve}).
   *
   * @throws IllegalArgumentException with a sentence saying what is wrong
   */
  public static Approval parse(String spec) {
    int eq = spec == null ? -1 : spec.lastIndexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("an approval is FOLDER=read or FOLDER=write, not " + spec);
    }
    return of(spec.substring(0, eq), spec.substring(eq + 1));
  }

  /** An approval from its two parts as written; the folder is checked and normalized. */
  public static Approval of(String folder, String access) {
    Access a = Access.ofWord(access);
    if (a == null) {
      throw new IllegalArgumentException("access must be read or write, not " + access);
    }
    return new Approval(normalize(folder), a);
  }

  /**
   * A folder as approvals hold it: {@code *} (and {@code ""}) is everything; trailing slashes go.
   * Refuses what could never name a folder of the vault: absolute paths, {@code ..}, hidden or
   * empty segments, backslashes and control characters, an {@code @} path that is not {@code
   * @mounts/<id>}.
   */
  public static String normalize(String folder) {
    if (folder == null) {
      throw new IllegalArgumentException("an approval needs a folder");
    }
    String f = folder.strip();
    if (f.equals("*") || f.equals("/") || f.isEmpty()) {
      return "";
    }
    while (f.endsWith("/")) {
      f = f.substring(0, f.length() - 1);
    }
    if (f.startsWith("/") || f.startsWith("~") || f.matches("^[A-Za-z]:.*")) {
      throw new IllegalArgumentException("the folder " + folder + " is absolute: name it inside the vault");
    }
    String[] segments = f.split("/", -1);
    for (String s : segments) {
      if (s.isEmpty() || s.startsWith(".") || s.equals("*")) {
        throw new IllegalArgumentException("the folder " + folder + " has an empty, hidden, '..' or '*' segment"
            + " (write * alone for everything)");
      }
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x20 || c == 0x7f || c == '\\') {
          throw new IllegalArgumentException("the folder " + folder + " has a control character or a backslash");
        }
      }
    }
    if (segments[0].startsWith("@") && (!segments[0].equals("@mounts") || segments.length < 2)) {
      throw new IllegalArgumentException("the folder " + folder + " starts with @ but is not @mounts/<id>");
    }
    return f;
  }

  /** True when {@code path} (a document or a folder, normalized) is this folder or below it. */
  public boolean covers(String path) {
    return folder.isEmpty()
        || path.equals(folder)
        || (path.length() > folder.length()
            && path.startsWith(folder)
            && path.charAt(folder.length()) == '/');
  }

  /** The folder as people write it: {@code *} for everything. */
  public String label() {
    return folder.isEmpty() ? "*" : folder;
  }

  /** {@code FOLDER=access}, the form {@link #parse} reads. */
  @Override
  public String toString() {
    return label() + "=" + access.word();
  }
}
