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
  /** On a volume that folds names: each folder of a document, by its key, as first spelled. */
  private final Map<String, String> folders = new ConcurrentHashMap<>();

  DocumentTable(VaultNames names) {
    this.names = names;
  }

  DocumentActor actor(VaultPath p, Function<VaultPath, DocumentActor> create) {
    return actors.computeIfAbsent(names.key(p.path()), k -> {
      DocumentActor a = create.apply(p);
      if (names.folds()) {
        for (int slash = p.path().indexOf('/'); slash > 0; slash = p.path().indexOf('/', slash + 1)) {
          String folder = p.path().substring(0, slash);
          folders.putIfAbsent(names.key(folder), folder);
        }
      }
      return a;
    });
  }

  DocumentActor get(String path) {
    return actors.get(names.key(path));
  }

  /**
   * The path the document at {@code path} is known by: its actor's spelling; for a new document,
   * {@code path} with its folders spelled as the vault's documents spell them (on a volume that
   * folds names, {@code Projects/new.gram} lands in the folder {@code projects}, and is named so).
   */
  String spelling(String path) {
    DocumentActor a = actors.get(names.key(path));
    if (a != null) {
      return a.location().path();
    }
    int last = path.lastIndexOf('/');
    if (!names.folds() || last < 0) {
      return path;
    }
    String folder = folders.get(names.key(path.substring(0, last)));
    return folder == null ? path : folder + path.substring(last);
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
