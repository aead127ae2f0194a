package dev.gram.web;

/**
 * The frame of every page: the landmarks (banner with the main navigation and the search box,
 * main, contentinfo), a skip link, a polite live region for what changed, the style sheet and the
 * script, both served from the jar. Nothing on a page comes from another host.
 */
final class Layout {
  private Layout() {}

  /** The attributes of {@code <body>} a page may set: which page it is, what it follows live. */
  record Body(String page, String livePath, String liveFolder) {
    static Body of(String page) {
      return new Body(page, null, null);
    }
  }

  static String page(String title, Body body, Visitor visitor, boolean open, String main) {
    StringBuilder out = new StringBuilder(main.length() + 2048);
    out.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<meta name=\"referrer\" content=\"same-origin\"><title>");
    Html.text(out, title);
    out.append(" · gram</title><link rel=\"stylesheet\" href=\"").append(Links.ROOT)
        .append("/static/ui.css\"><script src=\"").append(Links.ROOT)
        .append("/static/ui.js\" defer></script></head><body");
    Html.attr(out, "data-page", body.page());
    if (body.livePath() != null) {
      Html.attr(out, "data-live-path", body.livePath());
    }
    if (body.liveFolder() != null) {
      Html.attr(out, "data-live-folder", body.liveFolder());
    }
    out.append("><a class=\"skip\" href=\"#main\">Skip to content</a>")
        .append("<header class=\"top\"><a class=\"brand\" href=\"").append(Links.home())
        .append("\"><span aria-hidden=\"true\">◆</span> gram</a>")
        .append("<nav aria-label=\"Main\"><ul><li><a href=\"").append(Links.home())
        .append("\">Vault</a></li><li><a href=\"").append(Links.ROOT).append("/search\">Search</a></li></ul></nav>");
    if (visitor != null) {
      out.append("<form class=\"quick-search\" role=\"search\" method=\"get\" action=\"").append(Links.ROOT)
          .append("/search\"><label for=\"quick-q\" class=\"sr-only\">Search the vault</label>")
          .append("<input id=\"quick-q\" name=\"q\" type=\"search\" placeholder=\"Search (press /)\" ")
          .append("autocomplete=\"off\"><button type=\"submit\">Search</button></form>")
          .append("<div class=\"who\"><span class=\"sr-only\">Signed in as </span><span class=\"name\">");
      Html.text(out, visitor.name());
      out.append("</span>");
      if (!open) {
        out.append("<form method=\"post\" action=\"").append(Links.ROOT)
            .append("/logout\"><button type=\"submit\" class=\"link\">Log out</button></form>");
      }
      out.append("</div>");
    }
    out.append("</header><main id=\"main\" tabindex=\"-1\">")
        .append("<div id=\"live\" class=\"live\" role=\"status\" aria-live=\"polite\"></div>")
        .append(main)
        .append("</main><footer><p>gram-mcp: the memory your agents share. Every revision is kept; ")
        .append("a person's edits are recorded under their name.</p></footer></body></html>");
    return out.toString();
  }

  /** A short error page body: what went wrong, its code, and where to go. */
  static String error(String heading, String code, String message) {
    StringBuilder out = new StringBuilder(512);
    out.append("<h1>");
    Html.text(out, heading);
    out.append("</h1><p class=\"error\" role=\"alert\">");
    if (code != null) {
      out.append("<code>");
      Html.text(out, code);
      out.append("</code> ");
    }
    Html.text(out, message);
    out.append("</p><p><a href=\"").append(Links.home()).append("\">Back to the vault</a></p>");
    return out.toString();
  }
}
