package dev.gram.tools.support;

import dev.gram.store.DocSnapshot;
import io.vertx.core.json.JsonObject;

/** The {@code {path, rev, hash}} identity agents hold as the CAS pair of a document. */
public final class Docs {
  private Docs() {}

  public static JsonObject identity(DocSnapshot s) {
    return new JsonObject().put("hash", s.shortHash()).put("path", s.path()).put("rev", s.rev());
  }

  public static JsonObject identity(String path, int rev, String hash) {
    return new JsonObject().put("hash", hash).put("path", path).put("rev", rev);
  }
}
