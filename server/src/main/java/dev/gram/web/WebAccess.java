package dev.gram.web;

import dev.gram.access.Authenticator;
import dev.gram.access.Identity;
import io.vertx.core.Future;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Where a request's credential becomes "who is asking" for the web view: the server's own
 * {@link Authenticator}, so a person is an agent with a name and the same approvals as that
 * credential has on {@code /mcp}.
 *
 * <ul>
 *   <li>When the server asks no credential (loopback without {@code --token}, {@code --agents}
 *       or {@code --oauth-issuer}), everyone is the local caller (narrowed by {@code --approve}),
 *       whose edits are recorded as the default person.
 *   <li>Otherwise the login form asks for a token (the shared token, an agent's token, or an OAuth
 *       access token) and, for the shared token, which names nobody, a name. On success the
 *       browser gets a random session id in an {@code HttpOnly}, {@code SameSite=Strict} cookie
 *       scoped to {@code /ui} (never the token itself); the session lasts {@link #SESSION_TTL}, or
 *       until the token expires, and ends at log-out. A script may send {@code Authorization:
 *       Bearer <token>} instead. Neither the token nor a session id ever appears in an address or a
 *       log. Approvals are read as they are now at every request (an agents file edited or an
 *       agent revoked takes effect on an open page).
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

  private final Authenticator authenticator;
  private final String defaultName;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  private record Session(Visitor visitor, long expiresAt) {}

  /**
   * @param authenticator the server's: what a credential proves
   * @param defaultName who edits are attributed to when no login is asked for
   */
  public WebAccess(Authenticator authenticator, String defaultName, Clock clock) {
    this.authenticator = authenticator;
    this.defaultName = defaultName;
    this.clock = clock;
  }

  /** A server whose pages ask for no credential. */
  public boolean open() {
    return !authenticator.required();
  }

  /** Who sent this request; null when it carries no valid credential. */
  public Future<Visitor> who(RoutingContext ctx) {
    if (open()) {
      return authenticator.authenticate(null).map(id -> visitor(id, defaultName));
    }
    String auth = ctx.request().getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return authenticator.authenticate(auth).map(id -> visitor(id, defaultName)).otherwise((Visitor) null);
    }
    Cookie c = ctx.request().getCookie(COOKIE);
    if (c == null) {
      return Future.succeededFuture();
    }
    Session s = sessions.get(c.getValue());
    if (s == null || s.expiresAt() < clock.millis() || s.visitor().identity().expired(clock.instant())) {
      if (s != null) {
        sessions.remove(c.getValue());
      }
      return Future.succeededFuture();
    }
    return Future.succeededFuture(s.visitor());
  }

  /** The person a credential names: its own name when it proves one, else the name given. */
  private static Visitor visitor(Identity id, String fallback) {
    return new Visitor(id.named() ? "person:" + id.name() : fallback, id);
  }

  /** Whether {@code name} may be a person's name: 1–64 letters, digits, spaces and {@code ._@-}. */
  static boolean validName(String name) {
    return name != null && NAME.matcher(name.strip()).matches();
  }

  /**
   * Checks a login; on success starts a session, sets its cookie and completes with the visitor,
   * else with null and sets nothing. A name is needed only for a credential that names nobody.
   */
  public Future<Visitor> login(RoutingContext ctx, String name, String secret) {
    if (open() || secret == null || secret.isBlank()) {
      return Future.succeededFuture();
    }
    return authenticator.authenticate("Bearer " + secret.strip()).map(id -> {
      if (!id.named() && !validName(name)) {
        return (Visitor) null;
      }
      Visitor v = visitor(id, "person:" + (name == null ? "" : name.strip()));
      byte[] raw = new byte[32];
      random.nextBytes(raw);
      String sid = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      if (sessions.size() >= MAX_SESSIONS) {
        evict();
      }
      long until = clock.millis() + SESSION_TTL.toMillis();
      if (id.expires() != null) {
        until = Math.min(until, id.expires().toEpochMilli());
      }
      sessions.put(sid, new Session(v, until));
      ctx.response().addCookie(cookie(sid).setMaxAge(Math.max(1, (until - clock.millis()) / 1000)));
      return v;
    }).otherwise((Visitor) null);
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
