package dev.gram.tools.spi;

import dev.gram.access.Identity;
import io.vertx.core.Future;
import java.util.List;

/**
 * The vault's documents as MCP resources ({@code gram://<path>}), for the protocol layer: list,
 * templates, read, and the change stream subscriptions are served from. Implemented in the tools
 * layer, where the store and the md rendering are.
 *
 * <p>Every method reports bad input as a {@link dev.gram.base.GramException}: {@code E_PATH} for a
 * URI that names something outside the vault, {@code E_ARGUMENT} for one that is not a {@code
 * gram://} URI or names no document, {@code E_CURSOR} for a cursor this server did not hand out.
 */
public interface Resources {

  /** One page of the vault's documents, in path order; {@code cursor} null for the first. */
  Future<ResourcePage> list(String cursor);

  /** The URI templates ({@code gram://{+path}}). */
  List<ResourceTemplate> templates();

  /** The document's current state: readable md, then its {@code .gram} source. */
  Future<List<ResourceContent>> read(String uri);

  /**
   * What a subscription to {@code uri} watches: one document, a folder (a URI ending in {@code /})
   * or the whole vault ({@code gram://}). Throws {@code E_PATH} for a path outside the vault.
   */
  ResourceScope scope(String uri);

  /** Where changes to documents are told, for subscriptions to hear. */
  ChangeFeed changes();

  /**
   * These resources as {@code caller} may see them: listing, reading and subscription scopes
   * through the caller's gate. The change feed is the vault's; subscribers filter what they hear
   * by the caller's approvals at each delivery.
   */
  default Resources as(Identity caller) {
    return this;
  }

  /** A document as a resource. */
  record ResourceEntry(
      String uri, String name, String title, String description, String mimeType, long size) {}

  /** A page of resources; {@code nextCursor} is null on the last page. */
  record ResourcePage(List<ResourceEntry> resources, String nextCursor) {}

  /** A URI template a client may fill in. */
  record ResourceTemplate(
      String uriTemplate, String name, String title, String description, String mimeType) {}

  /** One content item of a read: text of some mime type. */
  record ResourceContent(String uri, String mimeType, String text) {}
}
