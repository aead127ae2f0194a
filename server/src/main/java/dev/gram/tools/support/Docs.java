package dev.gram.tools.support;

import dev.gram.store.DocSnapshot;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code {path, rev, hash}} identity agents hold as the CAS pair of a document. */
public final class Docs {
  private Docs() {}

  public static JsonObject identity(DocSnapshot s) {
    return new JsonObject().put("hash", s.shortHash()).put("path", s.path()).put("rev", s.rev());
  }

  public static JsonObject identity(String path, int rev, String hash) {
    // Three members: a map sized for them, not Vert.x's default of sixteen slots (a recall
    // answer holds up to one identity per hit).
    Map<String, Object> m = new LinkedHashMap<>(4);
    m.put("hash", hash);
    m.put("path", path);
    m.put("rev", rev);
    return new JsonObject(m);
  }
}
