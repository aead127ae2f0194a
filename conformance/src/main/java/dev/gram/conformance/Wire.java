package dev.gram.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * One way of carrying JSON-RPC messages to a server: stdio, Streamable HTTP or legacy HTTP+SSE.
 * A wire knows framing, HTTP headers and sessions; {@link McpClient} knows the protocol eras.
 */
interface Wire extends AutoCloseable {

  /** Sends a request (it carries its {@code id}) and returns the server's response message. */
  JsonNode request(ObjectNode message) throws IOException;

  /** Sends a notification; nothing comes back. */
  void notify(ObjectNode message) throws IOException;

  /** The legacy protocol version this wire offers in {@code initialize}. */
  default String legacyVersion() {
    return Era.NEWEST_LEGACY;
  }

  /** Told the version the server chose in {@code initialize} (HTTP sends it as a header). */
  default void negotiated(String version) {}

  /** What the wire talks to, for messages. */
  String describe();

  @Override
  void close();
}
