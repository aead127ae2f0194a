package dev.gram.format;

import java.util.regex.Pattern;

/**
 * Writes a document in canonical form: the text whose SHA-256 is the document hash. Canonical
 * form is: the header, the owner, then each record after one blank line; within an entity its
 * fields (one line per value, keys in order of first appearance), then its links, then its
 * blocks. Every line ends with {@code \n}.
 */
public final class GramWriter {
  private GramWriter() {}

  public static final String HEADER = "@gram 2";

  private static final Pattern NEEDS_ESCAPE = Pattern.compile("^\\\\*::");

  public static String write(GramDocument doc) {
    StringBuilder sb = new StringBuilder(1024);
    sb.append(HEADER).append('\n');
    writeEntity(sb, doc.owner());
    for (Entity r : doc.records()) {
      sb.append('\n');
      writeEntity(sb, r);
    }
    return sb.toString();
  }

  static void writeEntity(StringBuilder sb, Entity e) {
    sb.append(e.isOwner() ? "doc" : e.type().code()).append(' ').append(e.id()).append('\n');
    for (Field f : e.fields()) {
      for (String v : f.values()) {
        sb.append(f.key()).append(' ').append(Values.encode(v)).append('\n');
      }
    }
    for (Link l : e.links()) {
      sb.append("-> ").append(l.predicate()).append(' ').append(l.target()).append('\n');
    }
    for (Block b : e.blocks()) {
      sb.append("::").append(b.name()).append('\n');
      appendBlockText(sb, b.text());
      sb.append("::end\n");
    }
  }

  /**
   * A block's text line by line. A line that starts with zero or more backslashes followed by
   * {@code ::} gets one more leading backslash, so no content line can end the block or start
   * another; the reader removes exactly one.
   */
  static void appendBlockText(StringBuilder sb, String text) {
    if (text.isEmpty()) {
      return;
    }
    int start = 0;
    while (true) {
      int nl = text.indexOf('\n', start);
      String line = nl < 0 ? text.substring(start) : text.substring(start, nl);
      if (NEEDS_ESCAPE.matcher(line).find()) {
        sb.append('\\');
      }
      sb.append(line).append('\n');
      if (nl < 0) {
        return;
      }
      start = nl + 1;
    }
  }
}
