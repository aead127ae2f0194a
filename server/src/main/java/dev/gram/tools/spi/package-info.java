/**
 * What the protocol layer needs to know about tools, and nothing more: the seam between MCP and
 * the tools.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.tools.spi.Tool}: a name, a description, the published input schema,
 *       whether the tool only reads (and is idempotent), a {@code precheck} for argument errors
 *       whose codes must win over the schema's {@code E_ARGUMENT}, and {@code call}.
 *   <li>{@link dev.gram.tools.spi.CallContext}: what a running tool may know of its call — the
 *       agent's name, who the caller is, whether the client cancelled, and a way to report
 *       progress — independent of the transport that carried it.
 *   <li>{@link dev.gram.tools.spi.ToolRegistry}: the tools by name, in the contract's order, and
 *       the tool that serves a given caller.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>The protocol routes a {@code tools/call} by name, runs {@code precheck}, validates the
 * arguments against {@code inputSchema()}, and only then calls {@code call} on an event loop; the
 * returned future's value is the answer, and a failure with a {@link dev.gram.base.GramException}
 * is a tool error. A tool must not block: its future completes when its work, done elsewhere, is
 * done.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Only {@code dev.gram.base}, {@code dev.gram.async} and {@code dev.gram.access} (a call's
 * caller): the protocol depends on this package
 * and must not reach through it to the store, the index or any tool.
 */
package dev.gram.tools.spi;
