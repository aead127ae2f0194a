/**
 * The command line: {@code java -jar gram-mcp.jar [command] [flags]}, built with picocli. {@link
 * dev.gram.server.cli.Main} is the jar's entry point.
 *
 * <h2>Commands</h2>
 *
 * <ul>
 *   <li><b>serve</b> (also the default, with no command): the server, with the flags of {@link
 *       dev.gram.server.ServeOptions}; runs until stdin closes, SIGTERM or SIGINT ({@code
 *       Serving}).
 *   <li><b>validate</b>: verifies every document ({@code DocumentCheck}, one file at a time, and
 *       {@code CrossChecks}, across files). Only reads.
 *   <li><b>reindex</b>: rebuilds the derived search index.
 *   <li><b>import</b>: Markdown notes into new documents ({@code FrontMatter}, {@code
 *       MarkdownNote}, {@code NotePaths}), written through the store like any create.
 *   <li><b>export</b>: every document's current state as Markdown or JSON ({@code
 *       DocumentExport}). Only reads the vault.
 *   <li><b>status</b>: a vault at a glance ({@code VaultSummary}) or a running server ({@code
 *       ServerProbe}, over HTTP).
 * </ul>
 *
 * <h2>Exit status and output</h2>
 *
 * Every command ends with 0 (done), 1 (something found wrong, or the work could not be done) or 2
 * (a bad command line, nothing done); see {@code Exit}. Help, the version and a command's report go
 * to stdout; errors are one line on stderr, never a stack trace. While serving, stdout belongs to
 * the stdio transport and nothing else writes there. Logs always go to stderr; {@code --log-level}
 * sets their level while the command line is parsed, before the first logger exists (which is why
 * no class here keeps a static logger).
 *
 * <h2>The search index</h2>
 *
 * {@code IndexAccess} is the only class here that uses {@code dev.gram.index}: {@code reindex} and
 * {@code status} go through it, so a change of the index's API changes one class. Without {@code
 * --index} the index lives in {@code <vault>/.gram-index}: hidden, so no listing, path or file
 * watcher of the vault sees it.
 *
 * <h2>Files and folders</h2>
 *
 * The commands that walk a vault ({@code VaultFiles}) follow the server's scan: hidden files and
 * folders and top-level {@code @} folders are not documents, and a temporary file of an
 * interrupted write is reported, not read.
 */
package dev.gram.server.cli;
