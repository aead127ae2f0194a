package dev.gram.web;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Where a request's credential becomes "who is asking": the one place, so that per-agent
 * approvals can be plugged in here and nowhere else.
 *
 * <ul>
 *   <li>Without a token (a loopback server, as {@code /mcp} is then), everyone is the default
 *       person, who may see and change everything.
 *   <li>With a token, the login form asks for a name and the token. On success the browser gets
 *       a random session id in an {@code HttpOnly}, {@code SameSite=Strict} cookie scoped to
 *       {@code /ui} (never the token itself); the session lasts {@link #SESSION_TTL} and ends at
 *       log-out. A script may send {@code Authorization: Bearer <token>} instead. Neither the
 *       token nor a session id ever appears in an address or a log.
 * </ul>
 *
 * <p>The {@code Host} and {@code Origin} rules of {@code /mcp} apply before any of this (the
 * transport's guard): a page of another site can neither read these pages nor post to them, and
 * the cookie is not sent with requests that another site starts.
 */
public final class WebAccess {
  static final String COOKIE = "gram-ui";
  static final Duration SESSION_TTL = Duration.ofHours(12);
  /** Sessions kept at most; the oldest go first. Logging in is rare; this only bounds abuse. */
  static final int MAX_SESSIONS = 10_000;
  private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._@-]{0,63}");

  private final byte[] token;
  private final String defaultName;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  private record Session(Visitor visitor, long expiresAt) {}

  /**
   * @param token the bearer token of the HTTP port, or null when it has none
   * @param defaultName who edits are attributed to when no login is asked for
   */
  public WebAccess(String token, String defaultName, Clock clock) {
    this.token = token == null || token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
    this.defaultName = defaultName;
    this.clock = clock;
  }

  /** A server whose pages ask for no credential. */
  public boolean open() {
    return token == null;
  }

  /** Who sent this request, or {@code null} when it carries no valid credential. */
  public Visitor who(RoutingContext ctx) {
    if (token == null) {
      return Visitor.everything(defaultName);
    }
    String auth = ctx.request().getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)
        && matches(auth.substring(7).strip())) {
      return Visitor.everything(defaultName);
    }
    Cookie c = ctx.request().getCookie(COOKIE);
    if (c == null) {
      return null;
    }
    Session s = sessions.get(c.getValue());
    if (s == null || s.expiresAt() < clock.millis()) {
      if (s != null) {
        sessions.remove(c.getValue());
      }
      return null;
    }
    return s.visitor();
  }

  /** Whether {@code name} may be a person's name: 1–64 letters, digits, spaces and {@code ._@-}. */
  static boolean validName(String name) {
    return name != null && NAME.matcher(name.strip()).matches();
  }

  /**
   * Checks a login; on success starts a session, sets its cookie and returns the visitor, else
   * returns {@code null} and sets nothing.
   */
  public Visitor login(RoutingContext ctx, String name, String secret) {
    if (token == null || secret == null || !validName(name) || !matches(secret)) {
      return null;
    }
    Visitor v = Visitor.everything("person:" + name.strip());
    byte[] id = new byte[32];
    random.nextBytes(id);
    String sid = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    if (sessions.size() >= MAX_SESSIONS) {
      evict();
    }
    sessions.put(sid, new Session(v, clock.millis() + SESSION_TTL.toMillis()));
    ctx.response().addCookie(cookie(sid).setMaxAge(SESSION_TTL.toSeconds()));
    return v;
  }

  /** Ends the request's session, if any, and clears its cookie. */
  public void logout(RoutingContext ctx) {
    Cookie c = ctx.request().getCookie(COOKIE);
    if (c != null) {
      sessions.remove(c.getValue());
    }
    ctx.response().addCookie(cookie("").setMaxAge(0));
  }

  private static Cookie cookie(String value) {
    return Cookie.cookie(COOKIE, value)
        .setPath(Links.ROOT)
        .setHttpOnly(true)
        .setSameSite(CookieSameSite.STRICT);
  }

  private boolean matches(String given) {
    // Constant time, so the comparison says nothing about the token.
    return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token);
  }

  private void evict() {
    long now = clock.millis();
    sessions.values().removeIf(s -> s.expiresAt() < now);
    Iterator<String> it = sessions.keySet().iterator();
    while (sessions.size() >= MAX_SESSIONS && it.hasNext()) {
      it.next();
      it.remove();
    }
  }
}
