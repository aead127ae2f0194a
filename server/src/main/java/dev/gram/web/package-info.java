/**
 * The web view: people see what their agents remember, live, and correct it through the same
 * tools agents use. Served by the same process on the HTTP port under {@code /ui} ({@code /}
 * redirects there), from resources inside the jar; a page never asks anything of another host.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.web.WebUi}: the routes (an {@link dev.gram.transport.HttpMount} the
 *       transport mounts behind its guard), the security headers every answer carries, error
 *       pages.
 *   <li>{@link dev.gram.web.WebAccess}: the one place where a request's credential becomes "who is
 *       asking", a {@link dev.gram.web.Visitor} (a name and two tests: may read, may write this
 *       path). Every page and edit asks the visitor and nothing else.
 *   <li>The renderer, {@link dev.gram.web.DocumentHtml} with {@code RecordHtml} and {@code
 *       InlineMd}: a document as the profile shows it, as HTML; pure, testable without a browser,
 *       used by nothing else (so it can never slow a tool).
 *   <li>The pages: {@code BrowsePage} (projects, folders, documents a page at a time) with {@code
 *       RecentActivity} ({@code gram_changes}), {@code DocumentPage} (a document now or as it was,
 *       a record's details, {@code RecordDetailHtml}), {@code HistoryPage} (the timeline, and {@code EntityDiff} between any
 *       two revisions), {@code SearchPage} ({@code gram_recall}), {@code Edits} (a person's
 *       changes as {@code gram_patch} calls, and the conflict view), {@code LiveEvents} (the change
 *       feed as server-sent events, one {@link dev.gram.protocol.SubscriberStream} per open page).
 *   <li>{@code ui.css} and {@code ui.js} beside these classes: the style (light and dark, print)
 *       and a small script that makes pages live; every page works without it.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>Server-rendered HTML, built with string builders and escaped in one place ({@code Html});
 * every address is built in {@code Links}.
 * Reads take the store's immutable snapshots through {@link dev.gram.store.DocumentReader}
 * (past states rebuilt on the vault's I/O pool by the tools' own {@code Snapshots}); a render
 * runs on a Vert.x worker, never on an event loop. Writes are tool calls ({@code ToolCalls}) with
 * the person's name as the agent: compare and swap against the revision the page showed, a
 * request_id per intent, {@code STALE_REVISION} answered with what changed and a way to apply the
 * change again, never an overwrite.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>The store's write side ({@code DocumentWriter}, {@code WriteCommand}, {@code Vault}): a
 * person writes through the tools like any agent. It may use the tools, their shared support and
 * SPI, the protocol's {@code SubscriberStream}, the transport's {@code HttpMount}, the store's read
 * side and the format. Only the server wires it. {@code ArchitectureTest} checks these rules.
 */
package dev.gram.web;
