package dev.gram.protocol;

import dev.gram.access.Identity;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where requests come from and where request-related notifications go: the stdio process, one
 * legacy HTTP session, one legacy SSE connection, or a single modern HTTP request.
 *
 * <p>A channel holds the only per-connection state MCP has: the legacy handshake (if the client
 * made one) and the calls in flight, so that {@code notifications/cancelled} and a closed
 * connection can reach them. Transports may touch a channel from several threads; every field is
 * safe for that.
 */
public final class Channel {
  private final String transport;
  private final String id;
  private final Outbound outbound;
  private final List<Runnable> closeHooks = new CopyOnWriteArrayList<>();
  private final ConcurrentMap<Object, InFlight> inFlight = new ConcurrentHashMap<>();
  private volatile Handshake handshake;
  private volatile Identity caller = Identity.local();
  private volatile boolean initialized;
  private volatile boolean closed;
  private volatile long lastUsedMillis = System.currentTimeMillis();

  /** What {@code initialize} settled for this channel. */
  public record Handshake(String protocolVersion, String clientName, JsonObject clientCapabilities) {}

  /** Something in flight on a channel that a cancellation or close must stop. */
  interface InFlight {
    void cancel(String reason);
  }

  /**
   * @param transport {@code stdio}, {@code http} or {@code sse}: also the agent name when the
   *     client gives none
   * @param id a name for logs (the session id over HTTP)
   * @param outbound where notifications for this channel's requests go; may be a no-op
   */
  public Channel(String transport, String id, Consumer<JsonObject> outbound) {
    this.transport = transport;
    this.id = id;
    this.outbound = Outbound.of(outbound);
  }

  /** The transport name of the server's own warm-up calls. */
  public static final String WARMUP = "warmup";

  /**
   * A channel for the server's own calls that warm its code while the clients are quiet
   * (transport {@value #WARMUP}): its requests are counted in the metrics under that name, but are
   * not a client's activity (they neither end the start-up handshake nor count as a client's last
   * request).
   */
  public static Channel warmup(String id) {
    return new Channel(WARMUP, id, message -> {});
  }

  public String transport() {
    return transport;
  }

  /** True for the server's own warm-up calls ({@link #warmup}). */
  public boolean warmup() {
    return WARMUP.equals(transport);
  }

  public String id() {
    return id;
  }

  /**
   * Who calls on this channel: what the transport authenticated (the local caller unless it says
   * otherwise). A legacy session's requests each prove it again; the latest proof is kept, so a
   * session's subscriptions follow its current approvals.
   */
  public Identity caller() {
    return caller;
  }

  /** Set by the transport once it has authenticated the request that uses this channel. */
  public void caller(Identity caller) {
    this.caller = caller == null ? Identity.local() : caller;
  }

  public Handshake handshake() {
    return handshake;
  }

  void handshake(Handshake h) {
    this.handshake = h;
  }

  public boolean initialized() {
    return initialized;
  }

  void markInitialized() {
    this.initialized = true;
  }

  public boolean closed() {
    return closed;
  }

  public long lastUsedMillis() {
    return lastUsedMillis;
  }

  public void touch() {
    lastUsedMillis = System.currentTimeMillis();
  }

  /** Where this channel's unsolicited messages go (a subscription's notifications). */
  Outbound outbound() {
    return new Outbound() {
      @Override
      public void accept(JsonObject notification) {
        send(notification);
      }

      @Override
      public void sendEncoded(java.util.List<String> messages) {
        if (!closed) {
          outbound.sendEncoded(messages);
        }
      }

      @Override
      public boolean congested() {
        return outbound.congested();
      }

      @Override
      public java.util.concurrent.Executor executor() {
        return outbound.executor();
      }
    };
  }

  /** True while the transport holds more for this channel's client than it wants to. */
  boolean congested() {
    return outbound.congested();
  }

  /** Runs {@code hook} when the channel closes (at once if it already has). */
  void onClose(Runnable hook) {
    closeHooks.add(hook);
    if (closed && closeHooks.remove(hook)) {
      hook.run();
    }
  }

  void send(JsonObject notification) {
    if (!closed) {
      outbound.accept(notification);
    }
  }

  /**
   * The in-flight table's key for a request id: 7 and 7L are the same JSON-RPC id, 7 and "7" are
   * not. An integer becomes a {@code Long}; anything else (a string, a number too large for a
   * long) is its own key, and a string never equals a number. No text is built per call: in the
   * first calls after a start a string concatenation runs interpreted, through method handles.
   */
  static Object key(Object requestId) {
    return requestId instanceof Integer || requestId instanceof Short || requestId instanceof Byte
        ? Long.valueOf(((Number) requestId).longValue())
        : requestId;
  }

  boolean register(Object requestId, InFlight call) {
    return inFlight.putIfAbsent(key(requestId), call) == null;
  }

  void unregister(Object requestId, InFlight call) {
    inFlight.remove(key(requestId), call);
  }

  boolean isInFlight(Object requestId) {
    return inFlight.containsKey(key(requestId));
  }

  /** Cancels one request; unknown or finished ids are ignored, as the specification asks. */
  public void cancel(Object requestId, String reason) {
    InFlight call = inFlight.remove(key(requestId));
    if (call != null) {
      call.cancel(reason);
    }
  }

  /** The connection went away: cancel everything still running on it. */
  public void close(String reason) {
    closed = true;
    List<InFlight> calls = new ArrayList<>(inFlight.values());
    inFlight.clear();
    for (InFlight c : calls) {
      c.cancel(reason);
    }
    List<Runnable> hooks = new ArrayList<>(closeHooks);
    closeHooks.clear();
    hooks.forEach(Runnable::run);
  }

  public int inFlightCount() {
    return inFlight.size();
  }

  @Override
  public String toString() {
    return transport + ":" + id;
  }
}
