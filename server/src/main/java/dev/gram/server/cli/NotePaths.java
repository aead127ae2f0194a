package dev.gram.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Where an imported note goes: its relative path, with names a vault path accepts. */
final class NotePaths {
  private NotePaths() {}

  /** The Markdown files under a folder, hidden files and folders left out, in path order. */
  static List<Path> markdownUnder(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(Files::isRegularFile)
          .filter(p -> isMarkdown(p) && !hidden(dir.relativize(p)))
          .sorted()
          .forEach(out::add);
    }
    return out;
  }

  static boolean isMarkdown(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".md") || n.endsWith(".markdown");
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      if (part.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** {@code notes/My Note.md} → {@code notes/My-Note.gram}. */
  static String documentPath(Path relative) {
    List<String> parts = new ArrayList<>();
    for (Path part : relative) {
      parts.add(part.toString());
    }
    String last = parts.remove(parts.size() - 1);
    List<String> out = new ArrayList<>();
    for (String p : parts) {
      out.add(segment(p));
    }
    out.add(segment(last.substring(0, last.lastIndexOf('.'))) + ".gram");
    return String.join("/", out);
  }

  /** A name a vault path accepts: no spaces, separators, control characters, leading . or @. */
  static String segment(String name) {
    String s = name.strip().replaceAll("[\\s\\\\/:*?\"<>|\\p{Cntrl}]+", "-").replaceAll("^[.@-]+", "");
    return s.isEmpty() ? "note" : s;
  }
}
