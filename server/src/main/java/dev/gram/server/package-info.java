/**
 * The process: the command line, the wiring of every layer, and the lifecycle from start to a
 * clean stop. The top of the stack, and the only package that sees all of it.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.server.Main}: {@code java -jar gram-mcp.jar}, signals and exit codes.
 *   <li>{@link dev.gram.server.ServerConfig}: the command line (and {@code GRAM_MCP_TOKEN}), parsed
 *       without ever exiting the JVM.
 *   <li>{@link dev.gram.server.Services}: everything behind the transports, built once per
 *       process — the {@link dev.gram.store.Vault}, the search index listening to it, and the
 *       tools on one {@link dev.gram.tools.support.GramContext}. This is where the store's
 *       concrete class meets its interfaces: the tools get the vault as a {@link
 *       dev.gram.store.DocumentReader} and a {@link dev.gram.store.DocumentWriter}, and of the
 *       configuration only their {@link dev.gram.tools.support.ToolSettings}.
 *   <li>{@link dev.gram.server.GramServer}: one Vert.x instance, the transports the configuration
 *       asks for (stdio, HTTP), and {@code stop()}, the only way down: stop accepting, end
 *       long-lived streams, let calls in flight finish so their writes land, flush stdout, close
 *       the transports, run the shutdown hooks (the vault drains its queued writes, then the
 *       index closes), close Vert.x.
 *   <li>{@code Welcome}: the short document a new vault starts with, written through the store
 *       like any other write.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>Every transport shares the same services, which is why a write made over stdio is visible
 * over HTTP at once. Values the layers below define are taken from them, never restated: the
 * answer budget in the server's instructions is {@link dev.gram.base.ResponseBudget#BYTES}, the
 * default read deadline is {@link dev.gram.tools.support.ToolSettings#DEFAULT_READ_DEADLINE}.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Nothing depends on this package: no layer below may import it ({@code ArchitectureTest}
 * checks this), so settings travel down as values the lower layer defines ({@code ToolSettings},
 * {@code HttpOptions}, {@code ServerInfo}). It decides what runs, not how: no tool logic, no
 * protocol handling and no file format here.
 */
package dev.gram.server;
