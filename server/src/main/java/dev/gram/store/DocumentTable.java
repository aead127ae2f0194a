package dev.gram.store;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The vault's documents: one actor per file (paths that name one file on the vault's volume share
 * a {@link VaultNames#key}, and the actor's path is the spelling it was first asked by), and which
 * path each document id lives at (a document's owner id is unique across the vault). Both
 * directions are kept so that a new snapshot updates them in constant time.
 */
final class DocumentTable {
  private final VaultNames names;
  private final Map<String, DocumentActor> actors = new ConcurrentHashMap<>();
  private final Map<String, String> pathById = new ConcurrentHashMap<>();
  private final Map<String, String> idByPath = new ConcurrentHashMap<>();

  DocumentTable(VaultNames names) {
    this.names = names;
  }

  DocumentActor actor(VaultPath p, Function<VaultPath, DocumentActor> create) {
    return actors.computeIfAbsent(names.key(p.path()), k -> create.apply(p));
  }

  DocumentActor get(String path) {
    return actors.get(names.key(path));
  }

  /** The path the document at {@code path} is known by: its actor's spelling, or {@code path}. */
  String spelling(String path) {
    DocumentActor a = actors.get(names.key(path));
    return a == null ? path : a.location().path();
  }

  Collection<DocumentActor> actors() {
    return actors.values();
  }

  /** The document at {@code path} now has owner id {@code id} (null: none, or no document). */
  synchronized void idAt(String path, String id) {
    String old = id == null ? idByPath.remove(path) : idByPath.put(path, id);
    if (old != null && !old.equals(id)) {
      pathById.remove(old, path);
    }
    if (id != null) {
      pathById.putIfAbsent(id, path);
    }
  }

  String pathOf(String documentId) {
    return pathById.get(documentId);
  }

  boolean taken(String documentId, String path) {
    String p = pathById.get(documentId);
    return p != null && !names.key(p).equals(names.key(path));
  }
}
