package dev.gram.store;

import dev.gram.format.History;
import dev.gram.format.Revision;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every request_id the vault has committed, found in the documents' histories (the histories are
 * the durable receipt store), plus the ids of writes in flight. One id belongs to one intent
 * across the whole vault.
 */
final class RequestIndex {

  /**
   * Where an id was used; {@code rev} is -1 while in flight. The digest of its intent is not kept
   * here: the revision in the history holds it, and this index has an entry per revision written.
   */
  record Entry(String path, int rev) {
    boolean inFlight() {
      return rev < 0;
    }
  }

  private final Map<String, Entry> byId = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> idsByPath = new ConcurrentHashMap<>();

  Entry lookup(String requestId) {
    return byId.get(requestId);
  }

  /** Claims an id for a write in flight; false when the id is already taken. */
  boolean reserve(String requestId, String path) {
    return byId.putIfAbsent(requestId, new Entry(path, -1)) == null;
  }

  void release(String requestId, String path) {
    byId.computeIfPresent(
        requestId, (k, e) -> e.inFlight() && e.path().equals(path) ? null : e);
  }

  void committed(String requestId, String path, int rev) {
    byId.put(requestId, new Entry(path, rev));
    idsByPath.computeIfAbsent(path, k -> ConcurrentHashMap.newKeySet()).add(requestId);
  }

  /** Replaces what is known of one document's ids with what its history holds. */
  synchronized void indexDocument(String path, History history) {
    forget(path);
    if (history == null) {
      return;
    }
    Set<String> ids = ConcurrentHashMap.newKeySet();
    for (Revision r : history.revisions()) {
      String id = r.requestId(); // decoded anew on each call: one copy serves both maps
      if (id != null) {
        byId.put(id, new Entry(path, r.rev()));
        ids.add(id);
      }
    }
    idsByPath.put(path, ids);
  }

  synchronized void forget(String path) {
    Set<String> old = idsByPath.remove(path);
    if (old != null) {
      for (String id : new HashSet<>(old)) {
        byId.computeIfPresent(id, (k, e) -> e.path().equals(path) && !e.inFlight() ? null : e);
      }
    }
  }
}
