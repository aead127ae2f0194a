package dev.gram.tools.resources;

import dev.gram.format.GramDocument;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.BodyRefs;
import io.vertx.core.Future;
import java.util.List;

/**
 * What resources need from the store, and nothing more: the path rules, the loaded documents, one
 * document's snapshot, and references resolved across the vault for rendering. The server wires
 * it to the vault, so this package never names the store's concrete class.
 */
public interface DocumentSource {

  PathResolver paths();

  /** Every loaded document, in path order. */
  List<DocSnapshot> documents();

  /** The document's snapshot; fails with {@code E_ARGUMENT} when there is none. */
  Future<DocSnapshot> read(VaultPath path);

  /** References in {@code doc} resolved in it and across the vault's loaded documents. */
  BodyRefs refs(GramDocument doc);
}
