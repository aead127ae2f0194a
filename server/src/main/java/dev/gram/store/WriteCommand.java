package dev.gram.store;

import dev.gram.format.GramDocument;
import io.vertx.core.json.JsonArray;

/**
 * A write addressed to one document's actor. Commands are plain data (the patch carries its
 * operations as JSON, not code) so that a later cluster can route them to the node that owns the
 * document.
 */
public sealed interface WriteCommand {
  VaultPath path();

  /** The agent's name, recorded as {@code by}. */
  String by();

  /** When the facts happened, as the caller wrote it, or {@code null}. */
  String effectiveAt();

  /** Creates a document; fails if anything exists at the path. */
  record Create(
      VaultPath path,
      GramDocument initial,
      String by,
      String effectiveAt,
      java.util.List<String> created,
      JsonArray diagnostics)
      implements WriteCommand {}

  /** Changes a document if it is still at {@code baseRevision} with {@code expectedHash}. */
  record Patch(
      VaultPath path,
      int baseRevision,
      String expectedHash,
      String requestId,
      String digest,
      JsonArray operations,
      String by,
      String effectiveAt)
      implements WriteCommand {}
}
