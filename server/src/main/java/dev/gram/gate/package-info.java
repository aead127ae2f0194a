/**
 * The gate: the store as one caller may use it, the one place every path to a document passes for
 * a caller whose approvals withhold something.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.gate.Gate}: {@code reader(store, caller)} and {@code writer(store,
 *       caller)}, and the path checks ({@code check}, {@code checkFolder}) for code that names a
 *       path without reading it (a subscription's scope, a prompt's argument).
 *   <li>{@link dev.gram.gate.GatedReader}: a {@link dev.gram.store.DocumentReader} that refuses a
 *       document outside the approvals with {@code E_PATH} before the store is asked (so the
 *       answer does not depend on whether it exists), lists only readable documents, refuses a
 *       folder that may not be named, and sees unreadable documents as absent when a link or a
 *       placement looks them up.
 *   <li>{@link dev.gram.gate.GatedWriter}: a {@link dev.gram.store.DocumentWriter} that refuses a
 *       write outside the approvals ({@code E_PATH}) or under a read-only one ({@code
 *       E_READ_ONLY}) before it goes to the local actors or to the cluster that routes it.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>The decision is {@link dev.gram.access.Approvals}'; this package applies it at the store's
 * two interfaces, which are the only way the tools, the resources and any other front end reach
 * documents. A caller with every approval gets the store itself, so the default server answers
 * byte for byte as before. Approvals are read at each call through the caller's {@link
 * dev.gram.access.Identity}: a reloaded agents file applies to the next call.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>The store only through its interfaces and value types; {@code dev.gram.access} for the
 * decision; nothing above (tools, protocol, transports, server), which use it.
 */
package dev.gram.gate;
