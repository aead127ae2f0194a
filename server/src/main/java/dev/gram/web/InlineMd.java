package dev.gram.web;

/**
 * The inline part of md — what a paragraph, a list item, a table cell, a quote or a title holds —
 * as HTML: {@code `code`}, {@code **strong**}, {@code *em*} and {@code _em_}, {@code ~~struck~~},
 * backslash escapes, links {@code [label](target)} and mentions {@code [label](@record-id)}.
 * Everything else is text, escaped. Total: any input gives well-formed HTML.
 *
 * <p>Where a link or a mention leads is the {@link Targets}' business: a mention becomes a link to
 * its record, or text marked unresolved; a link to another document becomes a link to its page;
 * a link to another host is kept as a link the person may follow, never fetched by the page.
 */
final class InlineMd {
  /** Where mentions and links lead. */
  interface Targets {
    /** The address of the record a mention names, or {@code null} when it names nothing readable. */
    String mention(String ref);

    /** The address a link leads to, or {@code null} to show its label as text. */
    String link(String target);
  }

  private final Targets targets;

  InlineMd(Targets targets) {
    this.targets = targets;
  }

  String html(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    append(out, s, 0);
    return out.toString();
  }

  void append(StringBuilder out, String s) {
    append(out, s, 0);
  }

  private void append(StringBuilder out, String s, int depth) {
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < n && isPunct(s.charAt(i + 1))) {
        Html.text(out, String.valueOf(s.charAt(i + 1)));
        i += 2;
        continue;
      }
      if (c == '`') {
        int run = run(s, i, '`');
        int close = s.indexOf("`".repeat(run), i + run);
        if (close > 0) {
          out.append("<code>");
          Html.text(out, s.substring(i + run, close).strip());
          out.append("</code>");
          i = close + run;
          continue;
        }
      }
      if (depth < 4) {
        int next = -1;
        if (c == '[' || (c == '!' && i + 1 < n && s.charAt(i + 1) == '[')) {
          next = link(out, s, i, depth);
        } else if ((c == '*' || c == '_') && i + 1 < n && s.charAt(i + 1) == c) {
          next = wrap(out, s, i, String.valueOf(c).repeat(2), "strong", depth);
        } else if (c == '~' && i + 1 < n && s.charAt(i + 1) == '~') {
          next = wrap(out, s, i, "~~", "del", depth);
        } else if (c == '*' || (c == '_' && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1))))) {
          next = wrap(out, s, i, String.valueOf(c), "em", depth);
        }
        if (next > 0) {
          i = next;
          continue;
        }
      }
      Html.text(out, String.valueOf(c));
      i++;
    }
  }

  /** {@code open}…{@code open} around non-blank text as {@code <tag>}; the index after, or -1. */
  private int wrap(StringBuilder out, String s, int i, String mark, String tag, int depth) {
    int from = i + mark.length();
    if (from >= s.length() || Character.isWhitespace(s.charAt(from))) {
      return -1;
    }
    int close = s.indexOf(mark, from);
    while (close > 0 && (Character.isWhitespace(s.charAt(close - 1))
        || (mark.equals("_") && close + 1 < s.length() && Character.isLetterOrDigit(s.charAt(close + 1)))
        || (mark.length() == 1 && close + 1 < s.length() && s.charAt(close + 1) == mark.charAt(0)))) {
      close = s.indexOf(mark, close + 1);
    }
    if (close <= from) {
      return -1;
    }
    out.append('<').append(tag).append('>');
    append(out, s.substring(from, close), depth + 1);
    out.append("</").append(tag).append('>');
    return close + mark.length();
  }

  /** {@code [label](target)} or {@code ![alt](src)}; the index after it, or -1. */
  private int link(StringBuilder out, String s, int i, int depth) {
    boolean image = s.charAt(i) == '!';
    int open = image ? i + 1 : i;
    int close = matching(s, open);
    if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != '(') {
      return -1;
    }
    int end = s.indexOf(')', close + 2);
    if (end < 0) {
      return -1;
    }
    String label = s.substring(open + 1, close);
    String target = s.substring(close + 2, end).strip();
    int space = target.indexOf(' ');
    if (space > 0) {
      target = target.substring(0, space);
    }
    if (image) {
      // A picture is never fetched from a page's text: another host must not learn who reads.
      String href = targets.link(target);
      out.append("<span class=\"inline-image\">");
      out.append("<span aria-hidden=\"true\">🖼 </span>");
      if (href != null) {
        out.append("<a");
        Html.attr(out, "href", href);
        out.append(" rel=\"noreferrer noopener\">");
      }
      Html.text(out, label.isBlank() ? "image" : label);
      out.append(href != null ? "</a>" : "").append("</span>");
      return end + 1;
    }
    if (target.startsWith("@")) {
      String ref = target.substring(1);
      String href = targets.mention(ref);
      if (href == null) {
        out.append("<span class=\"mention unresolved\"");
        Html.attr(out, "data-ref", ref);
        Html.attr(out, "title", "Unresolved reference " + ref);
        out.append('>');
        append(out, label, depth + 1);
        out.append("<span class=\"sr-only\"> (unresolved reference)</span></span>");
      } else {
        out.append("<a class=\"mention\"");
        Html.attr(out, "href", href);
        Html.attr(out, "data-ref", ref);
        out.append('>');
        append(out, label, depth + 1);
        out.append("</a>");
      }
      return end + 1;
    }
    String href = targets.link(target);
    if (href == null) {
      append(out, label, depth + 1);
    } else {
      out.append("<a");
      Html.attr(out, "href", href);
      if (href.startsWith("http")) {
        out.append(" rel=\"noreferrer noopener\"");
      }
      out.append('>');
      append(out, label, depth + 1);
      out.append("</a>");
    }
    return end + 1;
  }

  /** The {@code ]} that closes the {@code [} at {@code open}, or -1. */
  private static int matching(String s, int open) {
    int level = 0;
    for (int j = open; j < s.length(); j++) {
      char c = s.charAt(j);
      if (c == '\\') {
        j++;
      } else if (c == '[') {
        level++;
      } else if (c == ']' && --level == 0) {
        return j;
      }
    }
    return -1;
  }

  private static int run(String s, int i, char c) {
    int j = i;
    while (j < s.length() && s.charAt(j) == c) {
      j++;
    }
    return j - i;
  }

  private static boolean isPunct(char c) {
    return "\\`*_{}[]()#+-.!|~<>@\"'".indexOf(c) >= 0;
  }
}
