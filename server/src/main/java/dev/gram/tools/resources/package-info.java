/**
 * The vault seen through MCP's resources and prompts: documents as {@code gram://} resources, the
 * change feed subscriptions hear, and prompts that teach an agent to use the memory well.
 *
 * <h2>Resources</h2>
 *
 * {@link dev.gram.tools.resources.DocumentResources} implements {@link
 * dev.gram.tools.spi.Resources}. Every document is {@code gram://<path>} (mounts as {@code
 * gram://@mounts/<id>/…}); {@code resources/list} pages over the vault and its mounts in path order
 * with a cursor that names the last path shown; the one template is {@code gram://{+path}}. A read
 * answers from the document's current snapshot with two content items: the document as readable
 * Markdown by {@code gram_read}'s rules ({@code DocumentMarkdown}, reusing {@link
 * dev.gram.tools.support.SectionMd}), then its canonical {@code .gram} text. Paths in URIs obey
 * the vault's path rules: a URI naming something outside the vault is {@code E_PATH}.
 *
 * <h2>Changes</h2>
 *
 * {@link dev.gram.tools.resources.VaultChangeFeed} is a {@link dev.gram.store.CommitListener}: the
 * store calls it on the document's mailbox, before the receipt, and it turns each new state into
 * a {@link dev.gram.tools.spi.ResourceChange} (path, rev, hash, who wrote it, the revision's
 * {@code +added ~changed -removed}) for every registered listener. Listeners are the protocol's
 * per-subscriber streams, which only enqueue: a commit never waits for delivery. States that are
 * no news (the start-up scan, a reload of an unchanged file) are filtered out by the last
 * (rev, hash) seen per document.
 *
 * <h2>Prompts</h2>
 *
 * {@link dev.gram.tools.resources.MemoryPrompts}: {@code orient} (brief a folder, then changes
 * since a time), {@code record_decision} (a decision and its evidence in one revision), {@code
 * catch_up} (after a notification, read the history since the last revision seen).
 *
 * <h2>Threads</h2>
 *
 * Listing and reading run on the caller's event loop from immutable snapshots; the feed works
 * out each change on the vault's I/O thread and tells listeners on its own {@code gram-push}
 * thread.
 */
package dev.gram.tools.resources;
