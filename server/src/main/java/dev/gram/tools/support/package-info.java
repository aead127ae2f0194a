/**
 * What the tools share: the services a tool may use, and the rules every reading tool follows the
 * same way, each written once.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.tools.support.GramContext}: what a tool may use — the store's {@link
 *       dev.gram.store.DocumentReader} and {@link dev.gram.store.DocumentWriter}, the index's
 *       status, {@link dev.gram.tools.support.ToolSettings} (the read deadline, built by the
 *       server from its command line) and the clock.
 *   <li>Reading documents consistently: {@link dev.gram.tools.support.Snapshots} (one snapshot
 *       per document per call, past revisions rebuilt off the event loop, {@code STALE_READ} when
 *       two snapshots disagree), {@link dev.gram.tools.support.DocView}, {@link
 *       dev.gram.tools.support.Scope} (what a folder-wide read covers), {@link
 *       dev.gram.tools.support.Selectors} (revision, recorded_at, effective_at).
 *   <li>The time a call may take: {@link dev.gram.tools.support.Deadline}, the read deadline and
 *       the client's cancellation in one object.
 *   <li>The answer budget as tools spend it: {@link dev.gram.tools.support.Budget} and {@link
 *       dev.gram.tools.support.Page}, measuring every size with {@link
 *       dev.gram.base.ResponseBudget}; {@link dev.gram.tools.support.JsonText} for cutting long
 *       text; {@link dev.gram.tools.support.Cursors} for continuing; {@link
 *       dev.gram.tools.support.Limits} for page sizes and document limits.
 *   <li>How records and bodies are shown: {@link dev.gram.tools.support.EntityJson}, {@link
 *       dev.gram.tools.support.RecordLines}, {@link dev.gram.tools.support.SectionMd}, {@link
 *       dev.gram.tools.support.PlainText}, {@link dev.gram.tools.support.ShownAs}, {@link
 *       dev.gram.tools.support.BodyRefs}, {@link dev.gram.tools.support.Selections}, {@link
 *       dev.gram.tools.support.RecordFacts}, {@link dev.gram.tools.support.Docs}.
 *   <li>{@link dev.gram.tools.support.WriteErrors}: the store's write conflicts in the client's
 *       terms (the details of {@code STALE_REVISION} and {@code E_REQUEST_REUSE}).
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>Stateless helpers over immutable snapshots: nothing here keeps state between calls, and
 * nothing blocks an event loop (what reads files or rebuilds history runs on the store's I/O
 * pool). Errors are raised as {@link dev.gram.base.GramException} with the contract's code and
 * message; the protocol layer gives them their shape.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>The tools themselves ({@code dev.gram.tools}): a tool depends on this package, never the
 * reverse. The store only through its interfaces and value types (never {@code Vault}); nothing
 * of {@code protocol}, {@code transport} or {@code server}. {@code ArchitectureTest} checks all
 * three.
 */
package dev.gram.tools.support;
