/**
 * The fifteen MCP tools: one class per tool, named after it ({@code gram_patch} is {@link
 * dev.gram.tools.GramPatch}; {@code gram_context} is {@link dev.gram.tools.GramContextTool},
 * because {@link dev.gram.tools.support.GramContext} is the services record), all built on one
 * {@code GramContext} and listed in {@link dev.gram.tools.Tools#registry}.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>What each tool means: its description, its published input schema ({@link
 *       dev.gram.tools.ToolSchemas}, equal to the contract's), the checks of its arguments'
 *       meaning, and the shape of its answer.
 *   <li>{@code ReadTool}: how the thirteen tools that only read run a call.
 *   <li>{@code WriteAnswers}: the answer of the two that write, {@code {created, doc, receipt}}.
 * </ul>
 *
 * <h2>Design: the reading tools</h2>
 *
 * <p>Every tool that only reads extends {@code ReadTool} — orientation ({@code gram_profile},
 * {@code gram_projects}, {@code gram_capabilities}), search ({@code gram_recall}) and the nine
 * document readers ({@code gram_brief}, {@code gram_read}, {@code gram_list}, {@code gram_get},
 * {@code gram_context}, {@code gram_relations}, {@code gram_changes}, {@code gram_range}, {@code
 * gram_state}) — so one place gives each call the same treatment: failures come back as failed
 * futures, never thrown on the event loop; one {@link dev.gram.tools.support.Deadline} carries the
 * server's read deadline ({@code --read-deadline-ms}, 15 s by default) and the client's
 * cancellation, and answers {@code E_TIMEOUT} once the deadline has passed, whether the call was
 * waiting (for a document to load, for the vault's scan, for the index to catch up with a write)
 * or working; work that grows with the vault runs off the event loop; and the answer is checked
 * against the byte budget.
 *
 * <h3>What they read</h3>
 *
 * <ul>
 *   <li>One document: {@link dev.gram.store.DocumentReader#read} gives its {@link
 *       dev.gram.store.DocSnapshot}, an immutable view of its latest revision (loaded from disk
 *       on a worker the first time). Every answer about that document comes from that one
 *       snapshot: the current state, or a past revision rebuilt from the snapshot's history
 *       ({@link dev.gram.tools.support.Snapshots#view}).
 *   <li>A folder or the vault ({@link dev.gram.tools.support.Scope}): the loaded snapshots under
 *       it, after the vault's first scan, so a listing never silently misses a document.
 *   <li>Other documents (cross-document placements in a body, link targets): the store's current
 *       snapshot of each, found by document id.
 * </ul>
 *
 * <h3>Threads</h3>
 *
 * <p>Tools are called on an event loop and never block it. Reading a current state is in memory
 * and answered there. Work whose cost grows with the vault or with a document's history —
 * rebuilding a past revision, a brief or a selection over a folder, changes since a time, the
 * relation graph, scoring history for a query, listing project folders on disk — runs on the
 * store's I/O pool ({@link dev.gram.store.DocumentReader#io}), through {@code ReadTool.offLoop},
 * which does not start work whose deadline has passed, and calls {@link
 * dev.gram.tools.support.Deadline#check} as it goes. A recall runs on the index's own pool.
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
 * <p>No answer exceeds {@link dev.gram.base.ResponseBudget#BYTES} bytes of compact JSON. Lists
 * fill a {@link dev.gram.tools.support.Page} until the budget (less room kept for a cursor) or the
 * tool's {@code limit} is reached, then hand out {@code more}: an opaque cursor to pass back as
 * {@code cursor}. Long text (a section, a block) is cut at a blank line where possible. A single
 * item too large for any answer is {@code E_CONTEXT_BUDGET}; brief, changes and outlines shorten
 * instead and count what they left out in {@code omitted}.
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
 *   <li>gram_context pages are bound to the request's ids and fields;
 *   <li>gram_recall pages are bound to the query, mode, filters and page size.
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
 * E_TOO_MANY_DOCUMENTS}, naming the limit).
 *
 * <h2>Design: the writing tools</h2>
 *
 * <p>{@code gram_create} and {@code gram_patch} check their arguments, resolve the path (a write
 * may not leave the vault, nor go under a read-only mount) and submit one {@link
 * dev.gram.store.WriteCommand} — plain data, so a cluster could route it by path — to {@link
 * dev.gram.store.DocumentWriter#submit}; the store's actor does the rest. A patch's request_id
 * rules ({@code E_REQUEST_ID}) and its missing base ({@code E_CAS_REQUIRED}) are checked in {@code
 * GramPatch.precheck} alone, which the protocol layer runs before the schema's generic checks; the
 * longest request_id is the published schema's {@code maxLength}. A conflict the store reports
 * ({@code STALE_REVISION}, {@code E_REQUEST_REUSE}) gets its client details from {@link
 * dev.gram.tools.support.WriteErrors}.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>The store only through its interfaces, {@link dev.gram.store.DocumentReader} and {@link
 * dev.gram.store.DocumentWriter} (never {@code Vault}: {@code ArchitectureTest} checks this); the
 * index through {@code dev.gram.index}'s public types; the server's configuration only as {@link
 * dev.gram.tools.support.ToolSettings}. Nothing of {@code protocol}, {@code transport} or {@code
 * server}: a tool does not know how it was called, and the protocol knows tools only through
 * {@code dev.gram.tools.spi}.
 */
package dev.gram.tools;
