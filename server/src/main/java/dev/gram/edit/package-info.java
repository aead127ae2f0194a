/**
 * What writes mean: pure functions from a state and a request to the next state.
 *
 * <ul>
 *   <li>{@link dev.gram.edit.Creation}: revision 0 of a new document from {@code gram_create}'s
 *       content (fields, records, body).
 *   <li>{@link dev.gram.edit.PatchOps}: the patch operations (add, set, append, remove, unset,
 *       del, block, link, unlink, rel, and body edits by node id), behind the
 *       {@link dev.gram.edit.PatchEngine} interface the store calls inside a document's write
 *       actor, after its compare-and-swap check.
 *   <li>{@link dev.gram.edit.RichCodec}: {@code gram-rich/1} to and from the md body.
 *   <li>Diagnostics: warnings that do not stop a write (an unresolved link, an unknown field).
 * </ul>
 *
 * <p>An operation that cannot apply throws {@link dev.gram.base.GramException} with
 * {@code E_ARGUMENT}, naming the operation and the problem; nothing is written then.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>No I/O, no threads, no store: it sees one state and, through
 * {@link dev.gram.edit.PatchEngine.Context}, only whether another document exists. It may use
 * {@code dev.gram.format} and {@code dev.gram.base}.
 */
package dev.gram.edit;
