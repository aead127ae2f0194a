package dev.gram.protocol;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The MCP revisions this server speaks, and the two answers about versions that do not depend on
 * the era: the version {@code initialize} settles on, and the -32022 refusal of a version we do
 * not speak. Legacy revisions open with an {@code initialize} handshake; modern ones carry the
 * version in every request's {@code _meta} (see {@link RequestEra}).
 */
public final class ProtocolVersions {
  private ProtocolVersions() {}

  public static final String V2024_11_05 = "2024-11-05";
  public static final String V2025_03_26 = "2025-03-26";
  public static final String V2025_06_18 = "2025-06-18";
  public static final String V2025_11_25 = "2025-11-25";
  public static final String V2026_07_28 = "2026-07-28";

  /** Handshake revisions, newest first. */
  public static final List<String> LEGACY = List.of(V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05);

  /** Per-request revisions, newest first. */
  public static final List<String> MODERN = List.of(V2026_07_28);

  /** Every revision, newest first: what {@code server/discover} and -32022 advertise. */
  public static final List<String> ALL =
      List.of(V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05);

  public static boolean isLegacy(String v) {
    return LEGACY.contains(v);
  }

  public static boolean isModern(String v) {
    return MODERN.contains(v);
  }

  public static boolean isSupported(String v) {
    return ALL.contains(v);
  }

  /**
   * The answer to {@code initialize}: the client's version when we speak it, else our newest
   * legacy one (the client then decides whether it can go on), as the lifecycle prescribes.
   */
  public static String negotiate(String requested) {
    return isLegacy(requested) ? requested : LEGACY.get(0);
  }

  /**
   * The -32022 answer, listing every version we speak so the client can pick one. Public because
   * the Streamable HTTP transport gives it for an unsupported {@code MCP-Protocol-Version} header
   * before any message is read.
   */
  public static Reply unsupported(Object id, String requested) {
    JsonObject data =
        new JsonObject()
            .put("supported", new JsonArray(new ArrayList<>(ALL)))
            .put("requested", requested);
    return Reply.error(
        id,
        JsonRpc.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        data,
        Reply.ErrorKind.INVALID_MESSAGE);
  }
}
