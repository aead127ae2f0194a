/**
 * The MCP tools: one class per tool, built on one {@link dev.gram.tools.GramContext} and listed
 * in {@link dev.gram.tools.Tools#registry}.
 *
 * <h2>The reading tools</h2>
 *
 * <p>Nine tools only read: {@link dev.gram.tools.GramBrief gram_brief}, {@link
 * dev.gram.tools.GramRead gram_read}, {@link dev.gram.tools.GramList gram_list}, {@link
 * dev.gram.tools.GramGet gram_get}, {@link dev.gram.tools.GramContextTool gram_context} (named
 * {@code GramContextTool} because {@code GramContext} is the services record), {@link
 * dev.gram.tools.GramRelations gram_relations}, {@link dev.gram.tools.GramChanges gram_changes},
 * {@link dev.gram.tools.GramRange gram_range} and {@link dev.gram.tools.GramState gram_state}.
 * They share {@code ReadTool}: the contract's input schema, unknown arguments rejected, failures
 * returned as failed futures, the per-call deadline and a last check of the byte budget.
 *
 * <h3>What they read</h3>
 *
 * <ul>
 *   <li>One document: {@code vault.read(path)} gives its {@link dev.gram.store.DocSnapshot}, an
 *       immutable view of its latest revision (loaded from disk on a worker the first time).
 *       Every answer about that document comes from that one snapshot: the current state, or a
 *       past revision rebuilt from the snapshot's history ({@link
 *       dev.gram.tools.support.Snapshots#view}).
 *   <li>A folder or the vault ({@link dev.gram.tools.support.Scope}): the loaded snapshots under
 *       it, after the vault's first scan, so a listing never silently misses a document.
 *   <li>Other documents (cross-document placements in a body, link targets): the vault's current
 *       snapshot of each, found by document id.
 * </ul>
 *
 * <h3>Threads</h3>
 *
 * <p>Tools are called on an event loop and never block it. Reading a current state is in memory
 * and answered there. Work whose cost grows with the vault or with a document's history —
 * rebuilding a past revision, a brief or a selection over a folder, changes since a time, the
 * relation graph, scoring history for a query — runs on the vault's I/O pool through {@link
 * dev.gram.async.Async#run} and calls {@link dev.gram.tools.support.Deadline#check} as it goes.
 *
 * <h3>Answers</h3>
 *
 * <p>Every answer that is about documents carries their CAS pair, {@code doc} or {@code docs}:
 * {@code {path, rev, hash}} as the document is now, even when the facts shown are from a past
 * revision (those answers add {@code at: {at, eff, rev}}, the revision read). Rows are JSON
 * arrays wherever the contract uses arrays. Optional keys are left out rather than sent empty.
 *
 * <h3>Budget, pages and cursors</h3>
 *
 * <p>No answer exceeds {@link dev.gram.tools.GramContext#BUDGET_BYTES} bytes of compact JSON.
 * Lists fill a {@link dev.gram.tools.support.Page} until the budget (less room kept for a cursor)
 * or the tool's {@code limit} is reached, then hand out {@code more}: an opaque cursor to pass
 * back as {@code cursor}. Long text (a section, a block) is cut at a blank line where possible.
 * A single item too large for any answer is {@code E_CONTEXT_BUDGET}; brief, changes and outlines
 * shorten instead and count what they left out in {@code omitted}.
 *
 * <p>A cursor ({@link dev.gram.tools.support.Cursors}) names its tool and what it is bound to:
 *
 * <ul>
 *   <li>one document's pages (gram_list of a {@code .gram}, gram_read, gram_state) are bound to
 *       the path, the revision read and its state hash (and the section or entity). A later page
 *       reads that same revision even after new commits — the answer then carries {@code at} — so
 *       pages never mix revisions. A request whose path, section, entity or explicit selector
 *       differs is {@code STALE_CURSOR}; a document whose history no longer holds that revision
 *       as it was (the file was replaced) is {@code STALE_READ} for gram_list and gram_state, and
 *       {@code STALE_CURSOR} for gram_read, whose contract has no STALE_READ;
 *   <li>folder-wide pages (gram_list of a folder or a selection, gram_relations) are bound to the
 *       request and to every document's path and hash: any change is {@code STALE_CURSOR};
 *   <li>gram_changes pages are bound to the request and to the last revision listed, which must
 *       still be in its document's history: revisions are only ever added after it;
 *   <li>gram_context pages are bound to the request's ids and fields.
 * </ul>
 *
 * <p>A cursor that does not decode, or came from another tool, is {@code E_CURSOR} with the
 * tool's message.
 *
 * <h3>STALE_READ</h3>
 *
 * <p>Raised exactly when one read would combine two snapshots of the same document that disagree
 * about the revision read: a cursor continued after its document was replaced or removed (above),
 * and a past revision rebuilt on a worker while the file was replaced by one with another history
 * ({@link dev.gram.tools.support.Snapshots#requireSameRevision}). A document that merely gained
 * revisions never causes it. gram_range also answers {@code STALE_READ} when {@code
 * expected_hash} is not the document's current hash.
 *
 * <h3>Limits</h3>
 *
 * <p>See {@link dev.gram.tools.support.Limits}: page sizes per tool; gram_context reads at most
 * 100 ids from at most 25 documents, gram_relations at most 200 documents ({@code
 * E_TOO_MANY_DOCUMENTS}, naming the limit); each call has the server's read deadline ({@code
 * --read-deadline-ms}, 15 s by default), after which it answers {@code E_TIMEOUT}.
 */
package dev.gram.tools;

import dev.gram.tools.support.GramContext;
