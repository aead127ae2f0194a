package dev.gram.protocol;

/**
 * What the dispatcher reports about the calls it serves. The server backs it with Micrometer; tests
 * and tools use {@link #NONE}.
 */
public interface ProtocolMetrics {

  /**
   * One {@code tools/call} finished. {@code errorCode} is the tool error code ({@code E_ARGUMENT},
   * ...) or {@code null} on success; {@code cancelled} calls are counted but not timed.
   */
  void toolCall(String tool, String transport, long nanos, String errorCode, boolean cancelled);

  /** A JSON-RPC error answered any request or message. */
  void protocolError(String method, int code);

  /**
   * A call or a request refused because the caller may not do it: {@code outside_approvals},
   * {@code read_only}, or the reason an HTTP request's credential was refused.
   */
  default void refused(String reason) {}

  ProtocolMetrics NONE =
      new ProtocolMetrics() {
        @Override
        public void toolCall(
            String tool, String transport, long nanos, String errorCode, boolean cancelled) {}

        @Override
        public void protocolError(String method, int code) {}
      };
}
