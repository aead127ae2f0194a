package dev.gram.protocol;

/**
 * The {@code _meta} keys of MCP 2026-07-28. A request carries its protocol version, the client's
 * capabilities and its name under these keys; results name the server, and a subscription's
 * messages name the subscription.
 */
public final class MetaKeys {
  private MetaKeys() {}

  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
}
