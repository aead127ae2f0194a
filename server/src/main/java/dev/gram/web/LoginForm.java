package dev.gram.web;

/** The form that asks for a name and the server's token. It posts both; neither goes in an address. */
final class LoginForm {
  private LoginForm() {}

  static String html(String error) {
    StringBuilder out = new StringBuilder(1024);
    out.append("<h1>Log in</h1><p>This server asks for its token. Your name is what your edits are ")
        .append("recorded under.</p>");
    if (error != null) {
      out.append("<p class=\"error\" role=\"alert\">");
      Html.text(out, error);
      out.append("</p>");
    }
    out.append("<form class=\"login\" method=\"post\" action=\"").append(Links.ROOT).append("/login\">")
        .append("<p><label for=\"name\">Your name</label><br><input id=\"name\" name=\"name\" required ")
        .append("autocomplete=\"username\" maxlength=\"64\"></p><p><label for=\"token\">Token</label><br>")
        .append("<input id=\"token\" name=\"token\" type=\"password\" required autocomplete=\"current-password\">")
        .append("</p><p><button type=\"submit\">Log in</button></p></form>");
    return out.toString();
  }
}
