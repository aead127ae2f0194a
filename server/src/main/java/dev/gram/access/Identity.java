package dev.gram.access;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * Who is calling, as far as the server can prove it, and what they may reach.
 *
 * <ul>
 *   <li>{@link Kind#LOCAL}: the caller the server cannot tell apart from its operator: stdio (a
 *       sidecar owned by its parent) and loopback HTTP with no credentials configured. It names
 *       nobody; its approvals are everything unless {@code --approve} narrows them.
 *   <li>{@link Kind#TOKEN}: whoever holds the one {@code --token}. A shared secret proves
 *       possession, not a name: it names nobody and may reach everything.
 *   <li>{@link Kind#AGENT}: an agent of the agents file ({@code --agents}), by its name.
 *   <li>{@link Kind#OAUTH}: the agent an OAuth access token names ({@code --oauth-issuer}).
 * </ul>
 *
 * <p>A named identity's name is what a revision records as {@code by}; for one that names nobody
 * the server keeps using the name the client declares. Approvals are read each time they are
 * asked for, so a reloaded agents file reaches sessions and subscriptions already open: a revoked
 * agent's identity has {@link Approvals#NONE} from then on.
 */
public final class Identity {
  /** How the caller was recognized. */
  public enum Kind {
    LOCAL,
    TOKEN,
    AGENT,
    OAUTH;

    /** The word logs, metrics and {@code status} use. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static final Identity LOCAL_EVERYTHING = new Identity(null, Kind.LOCAL, () -> Approvals.EVERYTHING, null);

  private final String name;
  private final Kind kind;
  private final Supplier<Approvals> approvals;
  private final Instant expires;

  private Identity(String name, Kind kind, Supplier<Approvals> approvals, Instant expires) {
    this.name = name;
    this.kind = kind;
    this.approvals = approvals;
    this.expires = expires;
  }

  /** The local caller with every approval: the server as it always was. */
  public static Identity local() {
    return LOCAL_EVERYTHING;
  }

  /** The local caller, narrowed to {@code approvals} ({@code --approve}). */
  public static Identity local(Approvals approvals) {
    return approvals.everything() ? LOCAL_EVERYTHING : new Identity(null, Kind.LOCAL, () -> approvals, null);
  }

  /** The holder of the shared {@code --token}. */
  public static Identity token() {
    return new Identity(null, Kind.TOKEN, () -> Approvals.EVERYTHING, null);
  }

  /**
   * A caller the server knows by name.
   *
   * @param approvals read at every decision (an agents file reloads under it)
   * @param expires when the credential stops being valid, or null
   */
  public static Identity named(String name, Kind kind, Supplier<Approvals> approvals, Instant expires) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a named identity needs a name");
    }
    return new Identity(name, kind, approvals, expires);
  }

  /** The authenticated name, or null when the credential names nobody. */
  public String name() {
    return name;
  }

  public boolean named() {
    return name != null;
  }

  public Kind kind() {
    return kind;
  }

  /** The approvals as they are now. */
  public Approvals approvals() {
    Approvals a = approvals.get();
    return a == null ? Approvals.NONE : a;
  }

  /** When the credential expires, or null. */
  public Instant expires() {
    return expires;
  }

  /** True when the credential has expired by {@code now}: the identity then reaches nothing. */
  public boolean expired(Instant now) {
    return expires != null && !now.isBefore(expires);
  }

  /** True when this is the same caller as {@code other}: the same kind and name. */
  public boolean sameCaller(Identity other) {
    return other != null && other.kind == kind && java.util.Objects.equals(other.name, name);
  }

  /** For logs: the name, or the kind when it names nobody. Never a credential. */
  @Override
  public String toString() {
    return name != null ? name : "(" + kind.word() + ")";
  }
}
