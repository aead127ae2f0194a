/**
 * Who may reach what: the vocabulary of identities and approvals every layer shares, and the one
 * place the approval decision is made.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.access.Approval} (a folder and {@code read} or {@code write}) and {@link
 *       dev.gram.access.Approvals}, the decision itself: may this caller read or write this path,
 *       may it name this folder. Approvals add up; the root and the folders above an approved
 *       folder may be named, and show only what lies under approvals.
 *   <li>{@link dev.gram.access.Identity}: a caller as the server knows it (local, the {@code
 *       --token} holder, an agent of the agents file, an OAuth client), its name when it has a
 *       proven one, and its approvals, read live so that a reloaded agents file reaches sessions
 *       already open.
 *   <li>{@link dev.gram.access.Authenticator} and {@link dev.gram.access.Refusal}: a credential in,
 *       an identity or a refusal (401 or 403 with its challenge) out.
 *   <li>{@link dev.gram.access.ApprovalException}: the contract's {@code E_PATH} and {@code
 *       E_READ_ONLY} for a path the approvals do not reach.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>The decision is pure and lives here; enforcing it is the gate's business ({@code
 * dev.gram.gate}: the store as one identity sees it), and the protocol's for subscriptions and
 * prompts. A caller with every approval is served exactly as before any of this existed: the
 * gate is skipped, not merely passed.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Only {@code dev.gram.base}: like it, this package is ground every layer may stand on (the
 * tools, the protocol and the transports all see identities). It holds values and rules, no I/O.
 */
package dev.gram.access;
