package dev.gram.tools.support;

import dev.gram.base.CompactJson;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Opaque cursors. A cursor is base64url of a small JSON object that names the tool it came from,
 * what it is bound to (document path, revision, section, query…) and where to continue. A cursor
 * that does not decode is {@code E_CURSOR} with the tool's own message; one bound to something
 * else than the request is {@code STALE_CURSOR} with the tool's own message.
 */
public final class Cursors {
  private Cursors() {}

  public static String encode(String tool, JsonObject state) {
    JsonObject c = state.copy().put("k", tool);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(CompactJson.encode(c).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes a cursor of {@code tool}; {@code invalidMessage} is the tool's E_CURSOR message
   * (for example "Invalid list cursor").
   */
  public static JsonObject decode(String tool, String cursor, String invalidMessage) {
    try {
      byte[] raw = Base64.getUrlDecoder().decode(cursor);
      JsonObject c = new JsonObject(new String(raw, StandardCharsets.UTF_8));
      if (!tool.equals(c.getString("k"))) {
        throw new GramException(ErrorCode.E_CURSOR, invalidMessage);
      }
      return c;
    } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
      throw new GramException(ErrorCode.E_CURSOR, invalidMessage);
    }
  }

  /** An int field of a decoded cursor, or E_CURSOR when missing or of the wrong type. */
  public static int intField(JsonObject c, String key, String invalidMessage) {
    Object v = c.getValue(key);
    if (!(v instanceof Number n) || n.intValue() < 0) {
      throw new GramException(ErrorCode.E_CURSOR, invalidMessage);
    }
    return n.intValue();
  }

  /** A string field of a decoded cursor, or E_CURSOR when missing or of the wrong type. */
  public static String stringField(JsonObject c, String key, String invalidMessage) {
    Object v = c.getValue(key);
    if (!(v instanceof String s)) {
      throw new GramException(ErrorCode.E_CURSOR, invalidMessage);
    }
    return s;
  }
}
