package dev.gram.auth;

import dev.gram.access.Approval;
import dev.gram.access.Approvals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The approvals an access token's scopes grant:
 *
 * <ul>
 *   <li>{@code gram:read} reads everything, {@code gram:write} reads and writes everything;
 *   <li>{@code gram:read:<folder>} and {@code gram:write:<folder>} do the same under one folder of
 *       the vault: {@code gram:write:project-a}, {@code gram:read:shared/notes}, {@code
 *       gram:read:@mounts/team}. The folder is everything after the second colon,
 *       percent-decoded (a scope cannot hold a space: write {@code %20}).
 * </ul>
 *
 * Scopes are read from {@code scope} (a space-separated string, RFC 9068) or {@code scp} (a list
 * or a string, as some providers send it). Other scopes are ignored; approvals add up, as in an
 * agents file.
 */
final class Scopes {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Scopes.class);

  private Scopes() {}

  static List<String> of(JsonObject claims) {
    List<String> scopes = new ArrayList<>();
    for (String claim : List.of("scope", "scp")) {
      Object v = claims.getValue(claim);
      if (v instanceof String s) {
        for (String part : s.trim().split("\\s+")) {
          if (!part.isEmpty()) {
            scopes.add(part);
          }
        }
      } else if (v instanceof JsonArray a) {
        for (Object o : a) {
          if (o instanceof String s) {
            scopes.add(s);
          }
        }
      }
    }
    return scopes;
  }

  static Approvals approvals(List<String> scopes) {
    List<Approval> approvals = new ArrayList<>();
    for (String scope : scopes) {
      Approval a = approval(scope);
      if (a != null) {
        approvals.add(a);
      }
    }
    return approvals.isEmpty() ? Approvals.NONE : Approvals.of(approvals);
  }

  private static Approval approval(String scope) {
    if (scope.equals(OAuthSettings.READ)) {
      return Approval.of("*", "read");
    }
    if (scope.equals(OAuthSettings.WRITE)) {
      return Approval.of("*", "write");
    }
    for (String access : List.of("read", "write")) {
      String prefix = "gram:" + access + ":";
      if (scope.startsWith(prefix) && scope.length() > prefix.length()) {
        String folder = URLDecoder.decode(scope.substring(prefix.length()).replace("+", "%2B"), StandardCharsets.UTF_8);
        try {
          return Approval.of(folder, access);
        } catch (IllegalArgumentException e) {
          LOG.debug("scope {} ignored: {}", scope, e.getMessage());
          return null;
        }
      }
    }
    return null;
  }
}
