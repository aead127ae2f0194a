package dev.gram.store;

import dev.gram.format.Hashes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The digest a request_id is bound to: SHA-256 of the canonical JSON of the write's intent —
 * document, operation, base_revision, expected_hash, operations and effective_at. Canonical JSON
 * sorts object keys and has no whitespace, so two requests that mean the same thing have the same
 * digest however their JSON was spelled.
 */
public final class RequestDigest {
  private RequestDigest() {}

  public static String of(
      String path, int baseRevision, String expectedHash, JsonArray operations, String effectiveAt) {
    JsonObject intent =
        new JsonObject()
            .put("document", path)
            .put("operation", "patch")
            .put("base_revision", baseRevision)
            .put("expected_hash", expectedHash)
            .put("operations", operations)
            .put("effective_at", effectiveAt);
    return Hashes.sha256(canonical(intent));
  }

  public static String canonical(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v instanceof JsonObject o) {
      v = o.getMap();
    }
    if (v instanceof JsonArray a) {
      v = a.getList();
    }
    if (v instanceof Map<?, ?> m) {
      List<String> keys = new ArrayList<>();
      for (Object k : m.keySet()) {
        keys.add(String.valueOf(k));
      }
      Collections.sort(keys);
      sb.append('{');
      boolean first = true;
      for (String k : keys) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append(io.vertx.core.json.Json.encode(k)).append(':');
        write(sb, m.get(k));
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        write(sb, l.get(i));
      }
      sb.append(']');
    } else {
      sb.append(io.vertx.core.json.Json.encode(v));
    }
  }
}
