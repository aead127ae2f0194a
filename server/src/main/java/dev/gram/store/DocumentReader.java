package dev.gram.store;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Where reads go: immutable {@link DocSnapshot}s of the documents, the paths agents may name, and
 * the facts a reader needs to stay consistent with writers. Readers never enter a document's
 * write actor and never wait for writes.
 *
 * <p>This and {@link DocumentWriter} are the store as the layers above it see it; the tools know
 * nothing else of the store. {@link Vault} implements both for one node.
 */
public interface DocumentReader {

  /** Checks and resolves the paths agents send (the vault and its mounts). */
  PathResolver paths();

  /**
   * Completes once the start-up scan has loaded every document; a read that must not miss a
   * document (a folder listing) waits for it.
   */
  Future<Void> scanned();

  /** The document's snapshot, loading it if needed; {@code E_ARGUMENT} when there is none. */
  Future<DocSnapshot> read(VaultPath path);

  /** The snapshot if the document is loaded and present, else {@code null}; never waits. */
  DocSnapshot peek(String path);

  /** Every loaded document, ordered by path. */
  List<DocSnapshot> documents();

  /** Documents under a folder ({@code ""} is the whole vault without mounts), ordered by path. */
  List<DocSnapshot> documentsUnder(VaultPath folder);

  /** The path of the document whose owner has this id, or {@code null}. */
  String pathOfDocumentId(String documentId);

  /**
   * The latest time through which every revision is visible to readers: a cursor of revisions
   * "since a time" must never be handed out beyond it, or a slower commit could be skipped.
   */
  Instant visibleThrough();

  /**
   * The pool that reads touching files, or work that grows with a document's history, run on;
   * never an event loop.
   */
  Executor io();
}
