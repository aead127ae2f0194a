package dev.gram.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line the way a POSIX shell splits words, without running a shell: blanks
 * separate words, '…' is literal, "…" keeps blanks and honours \" and \\, and a backslash outside
 * quotes escapes the next character. No variables, globs or pipes: the runner starts the program
 * itself so that closing its stdin reaches the server and not a shell.
 */
final class Words {
  private Words() {}

  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unclosed ' in " + line);
        }
        w.append(line, i + 1, end);
        i = end;
        inWord = true;
      } else if (c == '"') {
        int j = i + 1;
        for (; j < line.length() && line.charAt(j) != '"'; j++) {
          char d = line.charAt(j);
          if (d == '\\' && j + 1 < line.length() && (line.charAt(j + 1) == '"' || line.charAt(j + 1) == '\\')) {
            d = line.charAt(++j);
          }
          w.append(d);
        }
        if (j >= line.length()) {
          throw new IllegalArgumentException("unclosed \" in " + line);
        }
        i = j;
        inWord = true;
      } else if (c == '\\' && i + 1 < line.length()) {
        w.append(line.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(w.toString());
    }
    if (words.isEmpty()) {
      throw new IllegalArgumentException("--stdio needs a command");
    }
    return words;
  }
}
