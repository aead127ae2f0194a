package dev.gram.store;

/**
 * Told of every new state of a document: a commit, a reload after another program changed the
 * file, or a removal ({@code snapshot} null). Called on the document's actor thread, before the
 * write's receipt is returned, so derived data (the search index) can be brought up to date in
 * the same pipeline. Must be quick and must not block on I/O.
 */
@FunctionalInterface
public interface CommitListener {
  void onChange(String path, DocSnapshot snapshot);
}
