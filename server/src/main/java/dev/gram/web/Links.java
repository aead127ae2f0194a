package dev.gram.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Function;

/**
 * The web view's addresses, built in one place. A document's path travels as path segments after
 * the page's name ({@code /ui/doc/project/notes.gram}), each percent-encoded, so an id or a
 * folder name can hold any character; everything else is a query parameter. No address ever
 * carries a credential.
 */
final class Links {
  static final String ROOT = "/ui";

  private Links() {}

  static String home() {
    return ROOT + "/";
  }

  static String folder(String folder) {
    return folder == null || folder.isEmpty() ? home() : home() + "?folder=" + q(folder);
  }

  static String doc(String path) {
    return ROOT + "/doc/" + segments(path);
  }

  static String docAt(String path, int rev) {
    return doc(path) + "?rev=" + rev;
  }

  static String record(String path, String id) {
    return doc(path) + "#" + anchor(id);
  }

  static String recordPage(String path, String id) {
    return ROOT + "/rec/" + segments(path) + "?id=" + q(id);
  }

  static String history(String path) {
    return ROOT + "/history/" + segments(path);
  }

  static String diffPage(String path) {
    return ROOT + "/diff/" + segments(path);
  }

  static String diff(String path, int from, int to) {
    return diffPage(path) + "?from=" + from + "&to=" + to;
  }

  static String edit(String path) {
    return ROOT + "/edit/" + segments(path);
  }

  static String search(String query) {
    return ROOT + "/search?q=" + q(query);
  }

  /** The element id a record's first appearance on a page carries. */
  static String anchor(String recordId) {
    return "r-" + recordId;
  }

  static String q(String s) {
    return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String segments(String path) {
    StringBuilder out = new StringBuilder(path.length() + 8);
    for (String seg : path.split("/", -1)) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(q(seg));
    }
    return out.toString();
  }

  /**
   * Where a link's target leads: web and mail addresses as written, {@code gram://path} and a
   * vault path ending in {@code .gram} (optionally {@code #record}) to that document's page, an
   * anchor on this page as written; {@code null} for anything else (a script, a file).
   */
  static String target(String target, Function<String, String> pathOfDocumentId) {
    String t = target.strip();
    String lower = t.toLowerCase(Locale.ROOT);
    if (lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("mailto:")) {
      return t;
    }
    if (t.startsWith("#")) {
      return t;
    }
    if (lower.startsWith("gram://")) {
      t = t.substring("gram://".length());
    }
    String anchor = null;
    int hash = t.indexOf('#');
    if (hash >= 0) {
      anchor = t.substring(hash + 1);
      t = t.substring(0, hash);
    }
    if (t.endsWith(".gram") && !t.startsWith("/") && !t.contains("..") && !t.contains(":")) {
      return anchor == null ? Links.doc(t) : Links.record(t, anchor);
    }
    return null;
  }}
