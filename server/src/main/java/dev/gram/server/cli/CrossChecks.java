package dev.gram.server.cli;

import dev.gram.format.Revision;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What no single file can show: two documents with one document id (links by id become
 * ambiguous), and one request_id bound to two different intents (a retry would be answered with
 * the wrong receipt). Findings go to the document seen second.
 */
final class CrossChecks {
  private final Map<String, String> pathById = new HashMap<>();
  /** request_id → "digest path". */
  private final Map<String, String[]> requests = new HashMap<>();

  List<DocumentCheck.Finding> add(String path, DocumentCheck.Result r) {
    List<DocumentCheck.Finding> out = new java.util.ArrayList<>();
    if (r.state() != null) {
      String other = pathById.putIfAbsent(r.state().id(), path);
      if (other != null) {
        out.add(new DocumentCheck.Finding(true, 2, "document id " + r.state().id() + " is also the id of " + other));
      }
    }
    for (Revision rev : r.history()) {
      if (rev.requestId() == null || rev.digest() == null) {
        continue;
      }
      String[] seen = requests.putIfAbsent(rev.requestId(), new String[] {rev.digest(), path});
      if (seen != null && !seen[0].equals(rev.digest())) {
        out.add(new DocumentCheck.Finding(true, 0, "request_id " + rev.requestId() + " of revision " + rev.rev()
            + " was already used for another change in " + seen[1]));
      }
    }
    return out;
  }
}
